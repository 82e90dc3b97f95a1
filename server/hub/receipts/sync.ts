import { usageResponseSchema, usdToMicros } from '../../../src/api/contract';
import type { HubContext } from '../http/context';
import { repeat } from '../repeat';
import { upstreamRequest, vendorUrl, type UpstreamResponse } from '../http/upstream-request';
import { lockLedger } from '../store/budgets';
import { keepReceipts, writeSyncState, type ReadReceipt } from '../store/receipts';
import { listVendorKeys } from '../store/vendor-keys';

/*
 * Reads the vendor's usage receipts (4.7: the newest of the key's organization, whatever the
 * subscription; at most 200 a read, no paging) with every vendor key the hub holds (keys of one
 * organization see the same receipts: kept once by id), and keeps them under the ledger lock, so
 * a budget check sees spend outside the hub either entirely or not at all. A vendor that is away
 * leaves the last figures in place; the failure is recorded and shown beside them.
 */

const USAGE_LIMIT = 200;
const TIMEOUT_MS = 15_000;
/** How often the hub reads the receipts by default (the console can also ask for a read at once). */
export const DEFAULT_RECEIPT_SYNC_MS = 60_000;

export type SyncResult = { ok: true; added: number; outside: number } | { ok: false; reason: string };

async function readUsage(upstream: string, key: string): Promise<ReadReceipt[] | string> {
  const target = vendorUrl(upstream, `/v1/live/usage?limit=${USAGE_LIMIT}`);
  let response: UpstreamResponse;
  let text: string;
  try {
    // The hub's one way to the vendor: its keep-alive agent, and a redirect never followed (it answers 3xx here).
    response = await upstreamRequest(target, {
      method: 'GET',
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      repeatable: true,
    });
    if (response.status < 200 || response.status >= 300) {
      response.discard();
      // The vendor's error code only (its message might echo something of the request).
      return `http_${response.status}`;
    }
    text = await response.text();
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE';
  }
  let parsed;
  try {
    parsed = usageResponseSchema.safeParse(JSON.parse(text));
  } catch {
    return 'UPSTREAM_BAD_RESPONSE';
  }
  if (!parsed.success) return 'UPSTREAM_BAD_RESPONSE';
  return parsed.data.data.flatMap((r) => {
    const created = Date.parse(r.created_at);
    if (!Number.isFinite(created) || r.receipt_id.length > 200) return [];
    return [
      {
        receipt_id: r.receipt_id,
        subscription_id: r.subscription_id.slice(0, 200),
        kind: r.kind.slice(0, 32),
        item_id: r.item_id ?? null,
        amount_micros: usdToMicros(r.amount_usd),
        created_at: created,
      },
    ];
  });
}

const inFlight = new WeakMap<HubContext, Promise<SyncResult>>();

/** One read of every key's receipts; a read already under way is joined, not doubled. */
export function syncReceipts(ctx: HubContext): Promise<SyncResult> {
  const running = inFlight.get(ctx);
  if (running) return running;
  const next = syncOnce(ctx).finally(() => inFlight.delete(ctx));
  inFlight.set(ctx, next);
  return next;
}

async function syncOnce(ctx: HubContext): Promise<SyncResult> {
  const now = (ctx.clock ?? Date.now)();
  const fail = async (reason: string): Promise<SyncResult> => {
    await ctx.db.transaction().execute((trx) => writeSyncState(trx, { synced_at: null, attempted_at: now, outcome: reason }));
    return { ok: false, reason };
  };
  if (!ctx.upstream) return fail('NO_UPSTREAM');
  const keys = await listVendorKeys(ctx.db);
  if (keys.length === 0) return fail('NO_VENDOR_KEY');
  const read: ReadReceipt[] = [];
  let failure: string | null = null;
  for (const row of keys) {
    const got = await readUsage(ctx.upstream, ctx.cipher.open(row.key_sealed, `${row.id}.key`));
    if (typeof got === 'string') failure ??= got;
    else read.push(...got);
  }
  const kept = await ctx.db.transaction().execute(async (trx) => {
    await lockLedger(trx, ctx.engine);
    const result = await keepReceipts(trx, read, now);
    // What one key read is kept; the figures count as synced only when every key was read.
    await writeSyncState(trx, { synced_at: failure === null ? now : null, attempted_at: now, outcome: failure ?? 'ok' });
    return result;
  });
  if (failure !== null) return { ok: false, reason: failure };
  return { ok: true, ...kept };
}

export interface ReceiptSync {
  stop: () => Promise<void>;
}

/** Reads the receipts at start and every intervalMs, until stopped (a read under way is awaited). */
export function startReceiptSync(ctx: HubContext, intervalMs: number): ReceiptSync {
  // A vendor away for an hour is one log line, not sixty.
  let lastLogged = 'ok';
  const loop = repeat(
    intervalMs,
    async () => {
      const result = await syncReceipts(ctx);
      const outcome = result.ok ? 'ok' : result.reason;
      if (outcome !== lastLogged) ctx.log?.(result.ok ? 'hub: vendor receipts read again' : `hub: vendor receipts not read: ${outcome}`);
      lastLogged = outcome;
    },
    { now: true, onError: (error) => ctx.log?.(`hub: vendor receipts: ${error.name}: ${error.message}`) },
  );
  return {
    stop: async () => {
      await loop.stop();
      // A read an admin asked for (POST /hub/v1/budgets/sync) may still be under way.
      await inFlight.get(ctx)?.catch(() => undefined);
    },
  };
}
