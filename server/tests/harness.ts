import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEMO_CREDENTIALS_FILE, demoCredentialsSchema, type DemoCredentials, type LivePullForm } from '../../src/api/contract';
import type { ServerTimeouts } from '../http/node-server';
import { startService, type RunningService } from '../main';
import { judgedFetch, type RequestMark } from './openapi-judge';

const run = promisify(execFile);

export interface Harness {
  service: RunningService;
  url: string;
  dataDir: string;
  demo: DemoCredentials;
  /** `mark` says a request is deliberately outside the document (openapi-judge.ts); its answer is judged all the same. */
  get: (path: string, token?: string, mark?: RequestMark) => Promise<{ status: number; body: any; headers: Headers }>;
  post: (path: string, token?: string, body?: unknown, mark?: RequestMark) => Promise<{ status: number; body: any; headers: Headers }>;
  restart: () => Promise<void>;
  close: () => Promise<void>;
}

/** A real service on a free port with a fresh data directory (seeded with the demo unless told). */
export async function startHarness(
  options: { seed?: 'demo' | 'none'; livePullForm?: LivePullForm; corsOrigins?: string[]; allowedHosts?: string[]; timeouts?: ServerTimeouts } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-test-'));
  const start = () =>
    startService({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      seed: options.seed ?? 'demo',
      livePullForm: options.livePullForm ?? 'envelope',
      corsOrigins: options.corsOrigins ?? [],
      allowedHosts: options.allowedHosts,
      timeouts: options.timeouts,
    });
  let service = await start();
  const demo: DemoCredentials =
    (options.seed ?? 'demo') === 'demo'
      ? demoCredentialsSchema.parse(JSON.parse(readFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')))
      : { api_key: '', jwt: '', org_id: '', subscriptions: [] };
  const call = async (method: string, path: string, token?: string, body?: unknown, mark?: RequestMark) => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await judgedFetch(`${harness.url}${path}`, { method, headers, body: payload }, mark);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: the test sees the text */
    }
    return { status: response.status, body: parsed as any, headers: response.headers };
  };
  const harness: Harness = {
    service,
    url: service.url,
    dataDir,
    demo,
    get: (path, token, mark) => call('GET', path, token, undefined, mark),
    post: (path, token, body, mark) => call('POST', path, token, body, mark),
    restart: async () => {
      await service.close();
      service = await start();
      harness.service = service;
      harness.url = service.url;
    },
    close: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Runs a CLI command against a data directory, as a user would (a separate process). */
export async function cli(script: 'keys' | 'jwt' | 'fixtures' | 'service', args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `server/cli/${script}.ts`, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: 0, stdout: stdout.trim(), stderr: stderr.trim() };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: (e.stdout ?? '').trim(), stderr: (e.stderr ?? '').trim() };
  }
}

export async function createKeyCli(dataDir: string, subscriptions: string[], extra: string[] = []) {
  const result = await cli('keys', ['create', '--name', 'test key', '--subscriptions', subscriptions.join(','), ...extra, '--data', dataDir]);
  if (result.code !== 0) throw new Error(`keys create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { key: string; key_id: string; key_name: string; org_id: string; expires_at: string | null };
}

/** A request as any HTTP client can send it: the Host header and the path exactly as given (not judged: raw on purpose). */
export function rawRequest(url: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((done, fail) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', fail);
    req.end();
  });
}
