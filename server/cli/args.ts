import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../lib/service-error';

/** Strict flag parsing: an unknown or malformed flag is a UsageError (one line, exit 2). */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

export function requireFlag(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Runs a CLI body: a UsageError prints one line and exits 2; anything else exits 1 without a stack. */
export async function runCli(name: string, body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** --upstream: an http(s) URL without credentials, query or fragment (its path, if any, prefixes /v1). */
export function upstreamUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--upstream must be a URL, got ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--upstream must be an http or https URL');
  if (url.username || url.password || url.search || url.hash) throw new UsageError('--upstream must have no credentials, query or fragment');
  return url.href.replace(/\/+$/, '');
}
