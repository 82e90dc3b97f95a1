import type { HubContext } from '../http/context';
import { upstreamRequest, vendorUrl, type UpstreamResponse } from '../http/upstream-request';
import type { VendorCredential } from '../store/vendor-keys';
import { vendorKeyFor } from '../store/vendor-keys';
import type { DecisionRow } from '../store/decisions';

/*
 * One decision sent to the vendor, from a request or from the background sender alike: the
 * vendor's final answer (accepted or refused), or why it must be tried again.
 */

const UPSTREAM_TIMEOUT_MS = 30_000;

export type Attempt = { final: true; status: number; text: string; parsed: unknown } | { final: false; reason: string };

const isJson = (type: string | null) => !!type && /^application\/([a-z0-9.+-]*\+)?json\b/i.test(type);

/** The vendor key and JWT cut out of a body, should the vendor ever echo them. */
export function redact(text: string, credential: VendorCredential): string {
  let out = text.replaceAll(credential.key, '[vendor key]');
  if (credential.jwt) out = out.replaceAll(credential.jwt, '[vendor JWT]');
  return out;
}

/** The vendor's path for a decision: 4.8/4.9 (live) or 4.11/4.12 (simulated). */
const decisionPath = (row: Pick<DecisionRow, 'family' | 'item_id' | 'kind'>) => `/${row.family}/items/${encodeURIComponent(row.item_id)}/${row.kind}`;

/** A 5xx, a timeout, a rate limit or no answer is the vendor's momentary trouble: try again. A 4xx is its answer. */
const RETRY_STATUS = (status: number) => status >= 500 || status === 408 || status === 429;

/** `known`: the vendor key a request just checked it holds (no second lookup); read from the store otherwise. */
export async function attemptDecision(ctx: HubContext, row: DecisionRow, known?: VendorCredential): Promise<Attempt> {
  if (!ctx.upstream) return { final: false, reason: 'NO_UPSTREAM' };
  const credential = known ?? (await vendorKeyFor(ctx.db, ctx.cipher, row.subscription_id));
  if (!credential) return { final: false, reason: 'NO_VENDOR_KEY' };
  const target = vendorUrl(ctx.upstream, `/v1${decisionPath(row)}`);
  const headers: Record<string, string> = { Authorization: `Bearer ${credential.key}`, Accept: 'application/json' };
  if (row.body !== null) headers['Content-Type'] = 'application/json';
  let response: UpstreamResponse;
  const signal = AbortSignal.timeout(UPSTREAM_TIMEOUT_MS);
  // A kept-alive connection the vendor closed while idle is retried on a fresh one by upstreamRequest.
  try {
    response = await upstreamRequest(target, { method: 'POST', headers, body: row.body ?? undefined, signal, repeatable: true });
  } catch (error) {
    return { final: false, reason: (error as Error).name === 'TimeoutError' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE' };
  }
  if (RETRY_STATUS(response.status) || (response.status >= 300 && response.status < 400) || !isJson(response.header('content-type'))) {
    response.discard();
    return { final: false, reason: RETRY_STATUS(response.status) ? `http_${response.status}` : 'UPSTREAM_BAD_RESPONSE' };
  }
  let text: string;
  let parsed: unknown;
  try {
    text = redact(await response.text(), credential);
  } catch (error) {
    return { final: false, reason: (error as Error).name === 'TimeoutError' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE' };
  }
  try {
    parsed = JSON.parse(text);
  } catch {
    return { final: false, reason: 'UPSTREAM_BAD_RESPONSE' };
  }
  return { final: true, status: response.status, text, parsed };
}
