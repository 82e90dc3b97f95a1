import http from 'node:http';
import https from 'node:https';

/*
 * The hub's requests to the vendor: node:http(s) over one keep-alive agent per protocol, so a
 * forwarded pull or decision reuses an open connection instead of paying a TCP (and TLS)
 * handshake, and skips the WHATWG fetch layer (about half a millisecond a request here). Redirects
 * are never followed (a redirect would carry the vendor key elsewhere): the caller sees the 3xx.
 * Idle sockets are unreferenced by the agent and close on the vendor's keep-alive timeout.
 */

export interface UpstreamResponse {
  status: number;
  /** A response header (name in any case), or null. */
  header: (name: string) => string | null;
  /** The whole body as UTF-8. */
  text: () => Promise<string>;
  /** Drops the body unread (the connection is closed rather than drained). */
  discard: () => void;
}

export interface UpstreamInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the request, and its body while it is read; a timeout's reason (TimeoutError) is what is thrown. */
  signal: AbortSignal;
  /**
   * The vendor may get it twice without harm: a decision (a repeat is a no-op) or a read that moves
   * nothing. Not an incremental pull: a lost first one moved the subscription's position, and a
   * second would answer the items after the lost ones (the team pull recovers those with a re-read).
   */
  repeatable: boolean;
}

let agents: { http: http.Agent; https: https.Agent } | undefined;

/** Created on first use, not at import. Sockets per origin: room for 20 reviewers and the sender at once. */
const agentsFor = () => (agents ??= { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) });

/** A vendor path (`/v1/…`, with any query) under the upstream's base URL, which may carry a path prefix of its own. */
export function vendorUrl(upstream: string, pathAndQuery: string): URL {
  const base = new URL(upstream);
  return new URL(`${base.pathname.replace(/\/+$/, '')}${pathAndQuery}`, base.origin);
}

/** A kept-alive connection the vendor closed while it sat idle fails this way when it is reused. */
const STALE = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One request to the vendor. A request that fails on a reused keep-alive connection before any
 * answer (the vendor closed it while idle, or its close was still on the wire) is sent once more
 * on a fresh connection, if it is `repeatable`: another pooled one could be just as stale, as after
 * a stalled event loop lets every idle timeout fire at once.
 */
export function upstreamRequest(url: URL, init: UpstreamInit): Promise<UpstreamResponse> {
  return send(url, init, false).catch((error: unknown) => {
    if (!(error instanceof StaleConnection)) throw error;
    if (!init.repeatable) throw (error.cause as Error | undefined) ?? error;
    return send(url, init, true);
  });
}

class StaleConnection extends Error {}

function send(url: URL, init: UpstreamInit, fresh: boolean): Promise<UpstreamResponse> {
  const secure = url.protocol === 'https:';
  const { signal } = init;
  // An aborted request fails with the abort's reason, so a timeout reads as a TimeoutError as fetch's did.
  const failure = (error: unknown) => (signal.aborted ? signal.reason : error) as Error;
  const headers = init.body === undefined ? init.headers : { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) };
  // `agent: false`: a connection of its own, closed after the answer.
  const agent = fresh ? false : secure ? agentsFor().https : agentsFor().http;
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, { method: init.method, headers, agent, signal }, (response) => {
      resolve({
        status: response.statusCode ?? 0,
        header(name) {
          const value = response.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
        text: () =>
          new Promise((done, fail) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
            response.on('error', (error) => fail(failure(error)));
            response.on('aborted', () => fail(failure(new Error('the upstream connection closed mid-answer'))));
          }),
        discard: () => response.destroy(),
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (!fresh && !signal.aborted && request.reusedSocket && STALE.has(error.code ?? '')) reject(new StaleConnection(error.message, { cause: error }));
      else reject(failure(error));
    });
    request.end(init.body);
  });
}
