import type { z } from './contract/zod';
import { errorBodySchema, issuePath } from './contract';
import { rememberSecret } from '../lib/redact';
import { ApiError, ConnectionBlockedError, ContractError, NetworkError, redactBody } from './errors';

export interface HttpConfig {
  /** Base URL of the service, e.g. https://dds.example.com or the console's own origin. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Per-attempt timeout (default 15 s). */
  timeoutMs?: number;
  /** Base delay of the retry backoff (default 300 ms). */
  retryDelayMs?: number;
  /** Maximum attempts for retryable GETs (default 3). */
  maxAttempts?: number;
  /** When it returns a reason, no request with the API key is sent (a connection whose key was refused). */
  blockedReason?: () => string | null;
  /**
   * Told what a request showed about the service: a keyed request it answered ('connected'),
   * or one that could not reach it ('unreachable'). For the header's observed state.
   */
  observe?: (outcome: 'connected' | 'unreachable') => void;
  /**
   * 'omit' (the default: a key travels in Authorization, never a cookie), or 'same-origin' for a
   * console served by a team hub, whose session is an HttpOnly cookie and which is sent no key.
   */
  credentials?: 'omit' | 'same-origin';
  /** Through a team hub: the member this page works as (`X-Hub-Member`); the hub refuses a session of another member (401 MEMBER_CHANGED). */
  member?: string;
}

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  token?: string;
  /** Sent with the connection's API key: refused up front while that key is blocked. */
  usesKey?: boolean;
  schema: S;
  signal?: AbortSignal;
  /**
   * False for a GET that changes something on the server (the incremental live pull moves the
   * subscription's position): a retry after a lost answer would skip the page that answer held.
   */
  idempotent?: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;

function buildUrl(baseUrl: string, path: string, query?: RequestSpec<z.ZodType>['query']): string {
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  return url.toString();
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** Full-jitter exponential backoff: a random delay up to base·2^attempt. */
const backoffDelay = (attempt: number, base: number) => Math.random() * base * 2 ** attempt;

function toApiError(status: number, statusText: string, text: string): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const envelope = errorBodySchema.safeParse(json);
  if (envelope.success) {
    const holdId = typeof envelope.data.hold_id === 'string' ? envelope.data.hold_id : undefined;
    return new ApiError(status, envelope.data.errorCode, envelope.data.errorMessage, redactBody(text), envelope.data.recorded, holdId);
  }
  const reason = statusText ? `${status} ${statusText}` : String(status);
  return new ApiError(status, null, `The server answered ${reason} without an error description`, redactBody(text));
}

type Issue = z.core.$ZodIssue;

/** The most specific issue: inside a union, the branch that got furthest before failing. */
function deepestIssue(issues: readonly Issue[]): { path: PropertyKey[]; message: string } | null {
  const first = issues[0];
  if (!first) return null;
  if (first.code === 'invalid_union' && first.errors.length > 0) {
    const candidates = first.errors
      .map((branch) => deepestIssue(branch))
      .filter((c): c is NonNullable<typeof c> => c !== null)
      .sort((a, b) => b.path.length - a.path.length);
    const best = candidates[0];
    if (best) return { path: [...first.path, ...best.path], message: best.message };
  }
  return { path: [...first.path], message: first.message };
}

const isRetryableStatus = (status: number) => status >= 500 || status === 429;

/**
 * One request: a timeout per attempt, retries for GETs on network errors, 5xx and 429
 * (never on other 4xx), and the body validated against the contract schema.
 * Only `Authorization` and `Content-Type` are ever sent (and through a team hub, `X-Hub-Member`).
 */
export async function request<S extends z.ZodType>(config: HttpConfig, spec: RequestSpec<S>): Promise<z.output<S>> {
  const blocked = spec.usesKey ? config.blockedReason?.() : null;
  if (blocked) throw new ConnectionBlockedError(blocked);
  const doFetch = config.fetch ?? globalThis.fetch.bind(globalThis);
  const url = buildUrl(config.baseUrl, spec.path, spec.query);
  const endpoint = `${spec.method} ${spec.path}`;
  const headers: Record<string, string> = {};
  if (config.member) headers['X-Hub-Member'] = config.member;
  if (spec.token) {
    // Whatever the answer echoes of it (the key's body without its prefix included) is redacted.
    rememberSecret(spec.token);
    headers.Authorization = `Bearer ${spec.token}`;
  }
  let body: string | undefined;
  if (spec.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(spec.body);
  }
  const maxAttempts = spec.method === 'GET' && spec.idempotent !== false ? (config.maxAttempts ?? 3) : 1;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  for (let attempt = 0; ; attempt++) {
    const last = attempt + 1 >= maxAttempts;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(spec.signal?.reason);
    spec.signal?.addEventListener('abort', onAbort);

    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: spec.method,
        headers,
        body,
        signal: controller.signal,
        credentials: config.credentials ?? 'omit',
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
      });
      text = await response.text();
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason ?? error;
      const failure = timedOut
        ? new NetworkError(`No answer from ${endpoint} within ${Math.round(timeoutMs / 1000)} s`, true)
        : new NetworkError(`Could not reach the service for ${endpoint}`, false);
      if (last) {
        config.observe?.('unreachable');
        throw failure;
      }
      await sleep(backoffDelay(attempt, config.retryDelayMs ?? 300), spec.signal);
      continue;
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }

    if (!response.ok) {
      const error = toApiError(response.status, response.statusText, text);
      if (last || !isRetryableStatus(response.status)) throw error;
      await sleep(backoffDelay(attempt, config.retryDelayMs ?? 300), spec.signal);
      continue;
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ContractError(endpoint, '', 'the response is not JSON', redactBody(text));
    }
    // Some servers signal failure inside a 200 envelope.
    if (json && typeof json === 'object' && (json as { success?: unknown }).success === false) {
      throw toApiError(response.status, response.statusText, text);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      const issue = deepestIssue(parsed.error.issues);
      throw new ContractError(
        endpoint,
        issue ? issuePath(issue.path) : '',
        issue?.message ?? 'the response does not match the contract',
        redactBody(text),
        parsed.error.issues,
      );
    }
    if (spec.usesKey) config.observe?.('connected');
    return parsed.data;
  }
}
