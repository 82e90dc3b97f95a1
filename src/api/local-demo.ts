import { localDemoSchema, type LocalDemo } from './contract';
import { request } from './http';

/** The demo connection a local service offers (not part of the spec; docs/contract.md). */

export function fetchLocalDemo(baseUrl: string, signal?: AbortSignal): Promise<LocalDemo> {
  return request({ baseUrl, maxAttempts: 1 }, { method: 'GET', path: '/_local/demo-connection', schema: localDemoSchema, signal });
}
