import { usdToMicros } from '../../../src/api/contract';
import type { HubContext } from '../http/context';
import type { Statement } from '../db/in-order';
import { appendAuditAfter, auditedTransaction, type AuditEntry } from '../store/audit';
import { keepInInbox, type Arrival, type ArrivedHow } from '../store/inbox';
import { pullReceiptQuery } from '../store/receipts';

const outcomeOf = (status: number, body: unknown) =>
  status < 300 ? 'ok' : ((body as { errorCode?: unknown } | null)?.errorCode?.toString() ?? `http_${status}`).slice(0, 64);

/**
 * Writes what a read delivered, in one transaction, before anyone sees it: the items into the
 * team's inbox (each once), the simulated prices for later decisions, the hub's receipt, and the
 * `v1.pull` audit row. Also the hub's own pulls (scheduled, recovering: actor null, via `system`).
 */
export async function recordPull(
  ctx: HubContext,
  actor: { id: string | null; via: string },
  path: string,
  subscriptionId: string | null,
  arrival: ArrivedHow | null,
  status: number,
  body: unknown,
  keep: (items: unknown[]) => unknown[] = (items) => items,
): Promise<number> {
  const outcome = outcomeOf(status, body);
  const data = (body as { data?: unknown } | null)?.data;
  const items: unknown[] = Array.isArray(data) ? data : Array.isArray((data as { items?: unknown })?.items) ? (data as { items: unknown[] }).items : [];
  const receipt = (Array.isArray(data) ? (body as { receipt?: unknown }) : (data as { receipt?: unknown } | undefined))?.receipt as
    { amount_usd?: unknown; receipt_id?: unknown; created_at?: unknown } | undefined;
  const amount = typeof receipt?.amount_usd === 'number' ? usdToMicros(receipt.amount_usd) : null;
  const now = Date.now();
  const ok = status < 300 && subscriptionId !== null;
  const simulated = path.startsWith('/data/');
  const listed = path === '/data/pull' && ok ? simulatedItems(items, subscriptionId, now) : [];
  // An item twice in one page (the vendor's answer is not trusted) is one row: an upsert may touch a row once.
  const seen = [...new Map(listed.map((row) => [row.item_id, row])).values()];
  const arrivals = ok && arrival ? inboxArrivals(keep(items), simulated) : [];
  let kept = 0;
  // The last writes carry the COMMIT on PostgreSQL (store/audit.ts: run again should the audit head have moved).
  await auditedTransaction(ctx.db, async (trx, end) => {
    // The writes, sent together once the inbox's head is locked (db/in-order.ts: one round trip on PostgreSQL).
    const later: Statement[] = [];
    // Into the team's inbox first: it takes the subscription's head row, so concurrent pulls keep their items in order.
    const inbox = arrivals.length > 0 ? keepInInbox(trx, subscriptionId!, arrivals, arrival!, actor.id, now, later) : null;
    // An incremental live page moved the vendor's position to its last item: a lost pull's recovery starts there (team-pull.ts).
    const last = (items[items.length - 1] as { submission_id?: unknown } | undefined)?.submission_id;
    if (ok && path === '/live/pull' && (arrival === 'pull' || arrival === 'schedule') && typeof last === 'string') {
      later.push(trx.updateTable('inbox_pulls').set({ position_item: last }).where('subscription_id', '=', subscriptionId));
    }
    // One statement for the page (a row at a time was a round trip each on PostgreSQL).
    if (seen.length > 0) {
      later.push(
        trx
          .insertInto('pulled_items')
          .values(seen)
          .onConflict((oc) =>
            oc.column('item_id').doUpdateSet((eb) => ({
              subscription_id: eb.ref('excluded.subscription_id'),
              price_micros: eb.ref('excluded.price_micros'),
              pulled_at: eb.ref('excluded.pulled_at'),
            })),
          ),
      );
    }
    // The hub's own receipt: a later read of the vendor's usage must not take it for spend outside the hub.
    if (amount !== null && typeof receipt?.receipt_id === 'string' && receipt.receipt_id.length <= 200) {
      const created = typeof receipt.created_at === 'string' ? Date.parse(receipt.created_at) : NaN;
      later.push(
        pullReceiptQuery(trx, {
          receipt_id: receipt.receipt_id,
          subscription_id: subscriptionId,
          item_id: null,
          amount_micros: amount,
          created_at: Number.isFinite(created) ? created : now,
          seen_at: now,
        }),
      );
    }
    const entry: AuditEntry = {
      actorId: actor.id,
      via: actor.via,
      action: 'v1.pull',
      target: path,
      subscriptionId,
      amountMicros: amount,
      outcome,
      details: { count: items.length, status, ...(arrival && arrival !== 'pull' && arrival !== 'pending' ? { how: arrival } : {}) },
    };
    await appendAuditAfter(trx, later, entry, now, end, (results) => {
      kept = inbox?.kept(results) ?? 0;
    });
  });
  return kept;
}

/** The delivered records as inbox rows: a simulated item's id and price, a live submission's id. */
function inboxArrivals(items: unknown[], simulated: boolean): Arrival[] {
  return items.flatMap((item) => {
    const record = (item ?? {}) as { id?: unknown; submission_id?: unknown; unit_price_usd?: unknown };
    const id = simulated ? record.id : record.submission_id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) return [];
    const price = simulated && typeof record.unit_price_usd === 'number' && record.unit_price_usd >= 0 ? usdToMicros(record.unit_price_usd) : null;
    return [{ family: simulated ? ('data' as const) : ('live' as const), item_id: id, payload: JSON.stringify(item), price_micros: price }];
  });
}

function simulatedItems(items: unknown[], subscriptionId: string, now: number) {
  return items.flatMap((item) => {
    const { id, unit_price_usd: price } = (item ?? {}) as { id?: unknown; unit_price_usd?: unknown };
    if (typeof id !== 'string' || id.length > 200) return [];
    return [
      { item_id: id, subscription_id: subscriptionId, price_micros: typeof price === 'number' && price >= 0 ? usdToMicros(price) : null, pulled_at: now },
    ];
  });
}
