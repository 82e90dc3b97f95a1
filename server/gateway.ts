import type { Context } from 'hono';

/**
 * Gateway mode (`--upstream URL`): the service serves the console and forwards every /v1 request
 * to a real Data Delivery Service, so the console's default base URL (its own origin) reaches the
 * real service without CORS. Bodies stream both ways; only the three headers the interface needs
 * go upstream; an upstream that cannot be reached, or answers with something that is not the
 * interface's JSON, becomes the JSON error envelope with 502, one that is too slow with 504.
 */

export interface GatewayOptions {
  /** The real service's base URL; /v1 paths are appended to its path. */
  upstream: string;
  /** From the request's start until the upstream's response headers (connect included). */
  headersTimeoutMs?: number;
  /** The whole exchange, the response body's stream included. */
  totalTimeoutMs?: number;
  log?: (line: string) => void;
}

const GATEWAY_HEADERS_TIMEOUT_MS = 15_000;
const GATEWAY_TOTAL_TIMEOUT_MS = 60_000;

/** What a client sends that the interface uses; nothing else (cookies, forwarding, hop-by-hop headers) leaves this machine. */
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept'] as const;

/**
 * The only upstream response headers handed to the browser: what describes the answer itself
 * (type, language, caching, validators, when to retry, rate limits, a request id for support).
 * Everything else stays here: cookies (a cookie on 127.0.0.1 is shared by every port), CORS and
 * CSP (this service sets its own policy), internal and hop-by-hop headers. Content-Length and
 * Content-Encoding are not forwarded either: fetch has already decoded the body it hands on.
 */
const FORWARDED_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-language',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
]);

/** Error codes of the gateway itself (not the interface's: a service never answers them). */
type GatewayErrorCode = 'UPSTREAM_UNREACHABLE' | 'UPSTREAM_BAD_RESPONSE' | 'UPSTREAM_TIMEOUT';

const failure = (code: GatewayErrorCode, status: 502 | 504, message: string) =>
  new Response(JSON.stringify({ success: false, errorCode: code, errorMessage: message }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });

class GatewayTimeout extends Error {
  override name = 'GatewayTimeout';
}

const isJson = (contentType: string | null) => !!contentType && /^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType);

/** The upstream URL for a request: the upstream's path, then the request's path and query. */
function upstreamUrl(upstream: string, requestUrl: string): URL {
  const base = new URL(upstream);
  const { pathname, search } = new URL(requestUrl);
  return new URL(`${base.pathname.replace(/\/+$/, '')}${pathname}${search}`, base.origin);
}

/** A Hono handler forwarding the request to the upstream; mount it on /v1/*. */
export function gateway(options: GatewayOptions) {
  const headersTimeout = options.headersTimeoutMs ?? GATEWAY_HEADERS_TIMEOUT_MS;
  const totalTimeout = options.totalTimeoutMs ?? GATEWAY_TOTAL_TIMEOUT_MS;
  const upstreamOrigin = new URL(options.upstream).origin;

  return async (c: Context): Promise<Response> => {
    const request = c.req.raw;
    const target = upstreamUrl(options.upstream, request.url);
    // Method and path only, never the query or a header: a key or a cursor never reaches a log.
    const what = `${request.method} ${c.req.path}`;

    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }

    const timeouts = new AbortController();
    const abortWith = (stage: string) => () => timeouts.abort(new GatewayTimeout(stage));
    const total = setTimeout(abortWith(`no complete answer within ${totalTimeout} ms`), totalTimeout);
    const untilHeaders = setTimeout(abortWith(`no answer within ${headersTimeout} ms`), headersTimeout);
    // A client that leaves mid-stream never reaches the end of the body: the timers must not keep the process up.
    total.unref();
    untilHeaders.unref();
    // A client that goes away cancels the upstream request too.
    const signal = AbortSignal.any([timeouts.signal, request.signal]);
    const done = () => {
      clearTimeout(total);
      clearTimeout(untilHeaders);
    };

    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
    let upstream: Response;
    try {
      upstream = await fetch(target, {
        method: request.method,
        headers,
        // Streamed as it arrives: the request body is never buffered here.
        body: hasBody ? request.body : undefined,
        duplex: 'half',
        redirect: 'manual',
        signal,
      } as RequestInit & { duplex: 'half' });
    } catch (error) {
      done();
      if (timeouts.signal.aborted) {
        const reason = timeouts.signal.reason instanceof Error ? timeouts.signal.reason.message : 'timeout';
        options.log?.(`gateway: ${what} → 504 (upstream ${upstreamOrigin}: ${reason})`);
        return failure('UPSTREAM_TIMEOUT', 504, `the Data Delivery Service at ${upstreamOrigin} did not answer in time`);
      }
      if (request.signal.aborted) {
        // The client left first: nobody reads this answer, and the upstream is not to blame.
        return failure('UPSTREAM_UNREACHABLE', 502, 'the request was cancelled');
      }
      options.log?.(`gateway: ${what} → 502 (upstream ${upstreamOrigin} unreachable: ${describe(error)})`);
      return failure('UPSTREAM_UNREACHABLE', 502, `the Data Delivery Service at ${upstreamOrigin} cannot be reached`);
    }
    clearTimeout(untilHeaders);

    // The interface never redirects: a 3xx is a proxy's or a login page's, and following it (or
    // handing it to the browser) would send the console, and its key, somewhere else.
    if (upstream.status >= 300 && upstream.status < 400) {
      done();
      await upstream.body?.cancel().catch(() => {});
      options.log?.(`gateway: ${what} → 502 (upstream ${upstreamOrigin} answered a redirect, ${upstream.status})`);
      return failure(
        'UPSTREAM_BAD_RESPONSE',
        502,
        `the Data Delivery Service at ${upstreamOrigin} answered with a redirect (HTTP ${upstream.status}), which the interface never does`,
      );
    }

    // Every answer of the interface, failures included, is JSON; anything else (a proxy's HTML
    // error page, a login redirect) would reach the console as a broken contract.
    if (upstream.body !== null && !isJson(upstream.headers.get('content-type'))) {
      done();
      await upstream.body.cancel().catch(() => {});
      options.log?.(
        `gateway: ${what} → 502 (upstream ${upstreamOrigin} answered ${upstream.status} with ${upstream.headers.get('content-type') ?? 'no content type'})`,
      );
      return failure('UPSTREAM_BAD_RESPONSE', 502, `the Data Delivery Service at ${upstreamOrigin} gave an answer that is not JSON (HTTP ${upstream.status})`);
    }

    const responseHeaders = new Headers();
    upstream.headers.forEach((value, name) => {
      if (FORWARDED_RESPONSE_HEADERS.has(name)) responseHeaders.append(name, value);
    });
    if (upstream.body === null) {
      done();
      return new Response(null, { status: upstream.status, headers: responseHeaders });
    }
    // The body is handed on as it streams in; the total timeout still holds until its end.
    const body = relayBody(upstream.body, {
      done,
      cut: (error) => {
        const reason = timeouts.signal.aborted && timeouts.signal.reason instanceof Error ? timeouts.signal.reason.message : describe(error);
        options.log?.(`gateway: ${what} → ${upstream.status}, cut mid-body (upstream ${upstreamOrigin}: ${reason})`);
        // The status and part of the body are gone already: only a broken connection tells the
        // client the answer is incomplete (ending it cleanly would pass a truncated body as whole).
        (c.env as { outgoing?: { destroy: () => void } } | undefined)?.outgoing?.destroy();
      },
    });
    return new Response(body, { status: upstream.status, headers: responseHeaders });
  };
}

/**
 * The upstream's body as a stream of our own: when the upstream dies (or the total timeout ends
 * it) mid-body, `cut` breaks the client's connection and the stream ends there, instead of an
 * error reaching the Node adapter, which prints a stack and appends "Error: …" to the body.
 */
function relayBody(source: ReadableStream<Uint8Array>, on: { done: () => void; cut: (error: unknown) => void }): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          on.done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        on.done();
        on.cut(error);
        controller.close();
      }
    },
    cancel(reason) {
      on.done();
      return reader.cancel(reason);
    },
  });
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.name : 'network error';
}
