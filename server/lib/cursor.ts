import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Opaque re-read cursors. A cursor carries the subscription, a fingerprint of the
 * filters and the last position read, signed with the data directory's secret.
 * Anything forged, altered, or sent with another subscription or other filters
 * decodes to null (the HTTP layer answers 400 INVALID_CURSOR).
 */
export interface CursorState {
  subscriptionId: string;
  filters: string;
  after: number;
}

const payloadSchema = z.object({
  v: z.literal(1),
  s: z.string(),
  f: z.string(),
  a: z.number().int().nonnegative(),
});

const SIGNATURE_BYTES = 16;

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest().subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(secret: string, state: CursorState): string {
  const body = Buffer.from(JSON.stringify({ v: 1, s: state.subscriptionId, f: state.filters, a: state.after })).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

export function decodeCursor(secret: string, cursor: string, expected: { subscriptionId: string; filters: string }): CursorState | null {
  const parts = cursor.split('.');
  if (parts.length !== 2) return null;
  const [body, signature] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(signature)) return null;
  const given = Buffer.from(signature, 'base64url');
  // Re-encoding must give back the same text: rules out non-canonical base64url variants.
  if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== signature) return null;
  if (!timingSafeEqual(given, sign(secret, body))) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { s, f, a } = parsed.data;
  if (s !== expected.subscriptionId || f !== expected.filters) return null;
  return { subscriptionId: s, filters: f, after: a };
}

/** A canonical fingerprint of re-read filters: same filters, same text, whatever their order. */
export function filterFingerprint(taskIds?: readonly string[], campaignIds?: readonly string[]): string {
  const part = (ids?: readonly string[]) => (ids ? [...ids].sort().join(',') : '*');
  return `t:${part(taskIds)}|c:${part(campaignIds)}`;
}
