import type { HubContext, RetryPolicy } from '../http/context';
import { appendAuditAfter, auditedTransaction } from '../store/audit';
import { recordAnswer, recordRetry, type DecisionRow } from '../store/decisions';
import type { VendorCredential } from '../store/vendor-keys';
import { attemptDecision } from './upstream';

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1_000, maxMs: 60_000, pollMs: 500 };

/** The delay before attempt n+1: doubling from baseMs up to maxMs, with jitter so a queue does not stampede a recovering vendor. */
function backoff(policy: RetryPolicy, attempts: number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempts, 20));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export type Delivered = { state: 'sent' | 'refused'; status: number; text: string; parsed: unknown } | { state: 'queued'; reason: string };

const outcomeOf = (status: number, body: unknown) =>
  status < 300 ? 'ok' : ((body as { errorCode?: unknown } | null)?.errorCode?.toString() ?? `http_${status}`).slice(0, 64);

/**
 * Sends a decision this hub holds the claim on (`sending`), and records what came of it: the
 * vendor's answer on the decision and in the audit log (one transaction), or back in the queue
 * with a later attempt. A vendor that answered is never asked again.
 */
export async function deliver(ctx: HubContext, row: DecisionRow, options: { answerFirst?: boolean; credential?: VendorCredential } = {}): Promise<Delivered> {
  const attempt = await attemptDecision(ctx, row, options.credential);
  const now = Date.now();
  if (!attempt.final) {
    await recordRetry(ctx.db, row.id, attempt.reason, now + backoff(ctx.retry ?? DEFAULT_RETRY, row.attempts), now);
    return { state: 'queued', reason: attempt.reason };
  }
  const state = attempt.status < 300 ? 'sent' : 'refused';
  const outcome = outcomeOf(attempt.status, attempt.parsed);
  // The audit row carries the COMMIT on PostgreSQL (store/audit.ts; run again should the head have moved).
  const record = () =>
    auditedTransaction(ctx.db, async (trx, end) => {
      // Lost the claim (reclaimed after it ran out and sent by another): its answer is recorded there.
      if (!(await recordAnswer(trx, row.id, { state, status: attempt.status, body: attempt.text, outcome }, now))) return;
      await appendAuditAfter(
        trx,
        [],
        {
          actorId: row.member_id,
          via: 'system',
          action: 'decision.send',
          target: `/${row.family}/items/${row.item_id}/${row.kind}`,
          subscriptionId: row.subscription_id,
          itemId: row.item_id,
          amountMicros: row.charged ? row.price_micros : null,
          outcome,
          details: { decision_id: row.id, kind: row.kind, status: attempt.status, attempts: row.attempts + 1 },
        },
        Date.now(),
        end,
      );
    });
  // A browser's request need not wait for this transaction (its round trips to the database, each
  // one an idle process woken on this kind of machine: docs/hub.md). Should it never happen, the
  // row is still `sending`, so it is sent again once its claim runs out or at the next start, and
  // the vendor takes the repeat as a no-op. It starts on the next turn of the event loop, once the
  // answer is written: SQLite's statements run on this thread, and started now they ran before the
  // answer went out (about 1 ms per decision).
  if (options.answerFirst)
    setImmediate(() => void record().catch((error: unknown) => ctx.log?.(`hub: recording decision ${row.id}: ${(error as Error).message}`)));
  else await record();
  return { state, status: attempt.status, text: attempt.text, parsed: attempt.parsed };
}
