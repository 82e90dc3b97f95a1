import { createMiddleware } from 'hono/factory';
import { setAnswerHeader } from './answer-headers';

/**
 * The console's security headers: a strict CSP, no referrer, no sniffing, no framing
 * (docs/architecture.md). Every answer carries them, the API's included, so a /v1 answer relayed
 * from an upstream in gateway mode is framed by this service's policy, never by the upstream's.
 */
function securityHeaders(apiOrigins: readonly string[]): Record<string, string> {
  const connect = ["'self'", ...apiOrigins].join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "img-src 'self' data: blob: https:",
      `connect-src ${connect}`,
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}

/** Sets the security headers on every answer, after its handler (they replace any the handler or an upstream set). */
export const withSecurityHeaders = (apiOrigins: readonly string[]) => {
  const headers = Object.entries(securityHeaders(apiOrigins));
  return createMiddleware(async (c, next) => {
    await next();
    for (const [name, value] of headers) setAnswerHeader(c, name, value);
  });
};
