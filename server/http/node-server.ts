import { getRequestListener, RequestError } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../src/api/contract';
import { ServiceError } from '../lib/service-error';

export interface ServerTimeouts {
  /** Time to receive a request's headers. */
  headersMs: number;
  /** Time to receive a whole request, body included. */
  requestMs: number;
}

/**
 * Node's defaults (60 s for headers, 300 s for a request) let a client that sends a body shorter
 * than its Content-Length, or headers a byte at a time, hold a connection for minutes; nothing
 * this service receives (64 KiB at most) needs more than seconds.
 */
const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/** The node:http options for these timeouts; Node checks them every connectionsCheckingInterval. */
function serverOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    // Node answers a request without Host with its own bare 400; the app's Host allow-list
    // answers it instead, with the 421 JSON error body, as it does any Host it was not told about.
    requireHostHeader: false,
    // Clients (undici's fetch, the browser) keep connections alive for longer than Node's 5 s
    // default; a server that closes an idle socket just as a client reuses it answers ECONNRESET.
    // Holding idle sockets longer than the clients do closes that race.
    keepAliveTimeout: 65_000,
  };
}

/** Which of Node's own parser and timeout failures becomes which error of the contract. */
function codeFor(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'INVALID_PARAMETER';
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  421: 'Misdirected Request',
  431: 'Request Header Fields Too Large',
};

/**
 * The contract's error body as a whole HTTP/1.1 answer written straight to a socket, which is then
 * closed. To a HEAD it is the status and headers alone: no body, and no Content-Type claiming one.
 */
function endWithError(socket: Duplex, failure: ServiceError, headers: Record<string, string> = {}, head = false): void {
  const body = JSON.stringify({ success: false, errorCode: failure.code, errorMessage: failure.message });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const content = head ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  socket.end(`HTTP/1.1 ${failure.status} ${STATUS_TEXT[failure.status] ?? 'Error'}\r\n${content}${extra.join('')}Connection: close\r\n\r\n${head ? '' : body}`);
}

/** Whether the bytes Node's parser refused were a HEAD request (its request line, as far as it got). */
const isHeadPacket = (error: NodeJS.ErrnoException & { rawPacket?: Buffer }) => error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  HEADERS_TOO_LARGE: 'request headers are too large',
  REQUEST_TIMEOUT: 'the request was not received in time',
  INVALID_PARAMETER: 'malformed HTTP request',
};

/**
 * Requests Node's parser refuses (malformed, headers too large, too slow) get the contract's
 * JSON error body instead of Node's bare status line, then the connection is closed. A socket
 * already answering a request, or already gone, is only destroyed, as Node itself does.
 */
function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    endWithError(socket, new ServiceError(codeFor(error), MESSAGES[codeFor(error)]!), {}, isHeadPacket(error));
  });
  // CONNECT is a proxy's method: Node hands such a request to 'connect' listeners only, and
  // with none it drops the connection without a word. It gets the 405 a wrong method gets.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    endWithError(socket, new ServiceError('METHOD_NOT_ALLOWED', 'CONNECT is not supported: this is not a proxy'), { Allow: 'GET, POST' });
  });
  // An Expect other than 100-continue: Node would answer its own bare 417. The service needs
  // no expectation met, so the request is served as if it had none (RFC 9110 10.1.1 allows it).
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
}

/**
 * A request the Node adapter cannot even turn into a fetch Request (a backslash in the path, a
 * target that is neither a path nor an absolute URL, a Host that is no host) is answered by
 * the adapter with a bare 400; here it gets the contract's error body.
 */
function requestErrorResponse(error: unknown): Response {
  const failure =
    error instanceof RequestError && /host/i.test(error.message)
      ? new ServiceError('MISDIRECTED_REQUEST', 'the Host header is not a host name')
      : new ServiceError('INVALID_PARAMETER', 'malformed request target');
  return new Response(JSON.stringify({ success: false, errorCode: failure.code, errorMessage: failure.message }), {
    status: failure.status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** The service's node:http server: the app behind these timeouts, every refusal Node or the adapter makes as the JSON error body. */
function createNodeServer(
  fetch: (request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => Response | Promise<Response>,
  options: { hostname: string; timeouts: ServerTimeouts },
): Server {
  const listener = getRequestListener(fetch as Parameters<typeof getRequestListener>[0], { hostname: options.hostname, errorHandler: requestErrorResponse });
  const server = createServer(serverOptions(options.timeouts), (incoming, outgoing) => {
    // A refusal of a HEAD that the app never saw (the adapter's malformed target) names no
    // Content-Type either: a HEAD answer has no body to parse (the app's own: guards.ts).
    if (incoming.method === 'HEAD') {
      const writeHead = outgoing.writeHead.bind(outgoing) as (...args: unknown[]) => ServerResponse;
      outgoing.writeHead = ((status: number, ...rest: unknown[]) => {
        if (status >= 400) outgoing.removeHeader('content-type');
        const headers = rest.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
        if (status >= 400 && headers) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
        return writeHead(status, ...rest);
      }) as ServerResponse['writeHead'];
    }
    return listener(incoming, outgoing);
  });
  answerClientErrors(server);
  return server;
}

/** An app that answers fetches: the simulator's and the hub's Hono apps. */
interface FetchApp {
  fetch: (request: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => Response | Promise<Response>;
}

/**
 * Takes the port before anything else is made: a port in use fails before a store is opened or
 * seeded. Requests that arrive before `serve(app)` wait for the app. `port` is the one taken
 * (port 0 asks for a free one).
 */
export async function listenFirst(options: { host: string; port: number; timeouts?: ServerTimeouts }): Promise<{
  server: Server;
  port: number;
  serve: (app: FetchApp) => void;
}> {
  let serve!: (app: FetchApp) => void;
  const appReady = new Promise<FetchApp>((done) => (serve = done));
  const server = createNodeServer(async (request, env) => (await appReady).fetch(request, env), {
    hostname: options.host,
    timeouts: options.timeouts ?? DEFAULT_TIMEOUTS,
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : options.port, serve };
}
