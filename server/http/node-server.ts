import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '../../src/api/contract';
import { ApiError } from '../lib/api-error';

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
export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/** The node:http options for these timeouts; Node checks them every connectionsCheckingInterval. */
export function serverOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
  };
}

/** Which of Node's own parser and timeout failures becomes which error of the contract. */
function codeFor(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'INVALID_PARAMETER';
}

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
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const failure = new ApiError(codeFor(error), MESSAGES[codeFor(error)]!);
    const body = JSON.stringify({ success: false, errorCode: failure.code, errorMessage: failure.message });
    socket.end(
      `HTTP/1.1 ${failure.status} ${failure.status === 431 ? 'Request Header Fields Too Large' : failure.status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
