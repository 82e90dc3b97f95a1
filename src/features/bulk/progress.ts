import { phaseOf } from '../../domain/outbox/transitions';
import type { OutboxEntry } from '../../domain/outbox/model';

/** Groups of bulk decisions by query carry this prefix, so a run is found again after a reload. */
const RUN_PREFIX = 'query:';

export const newRunId = () => `${RUN_PREFIX}${globalThis.crypto?.randomUUID?.() ?? `${Date.now()}${Math.random().toString(36).slice(2)}`}`;

export interface RunProgress {
  group: string;
  /** Every decision of the run still held by the outbox. */
  total: number;
  sent: number;
  /** Not sent yet and not given up: in the undo window, queued, on its way, waiting for confirmation. */
  unsent: number;
  /** In their undo window now (Undo takes them back). */
  inWindow: number;
  /** Past their window, waiting their turn to be sent (paused ones and those waiting for "Send and pay" included). */
  queued: number;
  /** On their way now (Cancel cannot stop these). */
  sending: number;
  /** Gave up (or expired): Retry or discard them. */
  failed: number;
  /** The service holds another decision on the item. */
  conflicts: number;
  /** Cancelled (or discarded one by one): recorded, never sent. */
  discarded: number;
  /** Paused by the user. */
  held: number;
  /** Charged adopts left by an earlier visit: they wait for the user's "Send and pay" (outbox notice), Resume does not send them. */
  awaitingConfirmation: number;
  /** Held by a budget limit: not sent until the limit is raised or they are released (Budgets page). */
  heldByBudget: number;
  /** Not sent and not on its way: what Cancel would discard. */
  cancellable: number;
  /** When the run was recorded. */
  startedAt: number;
}

/**
 * Where a run stands, from the outbox's entries of its group (durable, so a reload shows the
 * same). One pass over the entries.
 */
export function runProgress(entries: readonly OutboxEntry[], group: string): RunProgress {
  const p: RunProgress = {
    group,
    total: 0,
    sent: 0,
    unsent: 0,
    inWindow: 0,
    queued: 0,
    sending: 0,
    failed: 0,
    conflicts: 0,
    discarded: 0,
    held: 0,
    heldByBudget: 0,
    awaitingConfirmation: 0,
    cancellable: 0,
    startedAt: Infinity,
  };
  for (const e of entries) {
    if (e.group !== group) continue;
    p.total++;
    p.startedAt = Math.min(p.startedAt, e.createdAt);
    if (e.held) p.held++;
    // Queued as the default case below counts them; named apart because they wait for the user.
    if (e.state === 'needs-confirmation') p.awaitingConfirmation++;
    switch (phaseOf(e.state)) {
      case 'confirmed':
        p.sent++;
        break;
      case 'discarded':
        p.discarded++;
        break;
      case 'conflict':
        p.conflicts++;
        break;
      case 'failed':
      case 'expired':
        p.failed++;
        p.cancellable++;
        break;
      case 'sending':
        p.unsent++;
        p.sending++;
        break;
      case 'window':
        // The outbox queues it when its window ends, and says so: no clock needed here.
        p.inWindow++;
        p.unsent++;
        p.cancellable++;
        break;
      case 'held':
        p.heldByBudget++;
        p.unsent++;
        p.cancellable++;
        break;
      default:
        p.queued++;
        p.unsent++;
        p.cancellable++;
    }
  }
  return p;
}

export interface RunPart {
  key: 'inWindow' | 'queued' | 'sending' | 'sent' | 'heldByBudget' | 'failed' | 'discarded' | 'conflicts';
  label: string;
  count: number;
}

/**
 * Every decision of a run in exactly one part, in the order a decision moves through them, so
 * the parts always add up to what was recorded: in the undo window, queued, on the wire,
 * confirmed, held by budget, failed; cancelled and not taken (decided or leased by someone else) when there are any.
 */
export function runParts(p: RunProgress): RunPart[] {
  const parts: RunPart[] = [
    { key: 'inWindow', label: 'in the undo window', count: p.inWindow },
    { key: 'queued', label: 'queued', count: p.queued },
    { key: 'sending', label: 'on the wire', count: p.sending },
    { key: 'sent', label: 'confirmed', count: p.sent },
    { key: 'heldByBudget', label: 'held by budget', count: p.heldByBudget },
    { key: 'failed', label: 'failed', count: p.failed },
    { key: 'discarded', label: 'cancelled', count: p.discarded },
    // A conflict: the service holds another decision, or (through a team hub) a teammate holds or decided the item.
    { key: 'conflicts', label: 'not taken: decided or leased by someone else', count: p.conflicts },
  ];
  return parts.filter((part) => part.count > 0 || (part.key !== 'discarded' && part.key !== 'conflicts'));
}

/** The newest bulk run by query on a subscription, if any (its group id). */
export function latestRun(entries: readonly OutboxEntry[], subscriptionId: string): string | null {
  let latest: OutboxEntry | null = null;
  for (const e of entries) {
    if (e.subscriptionId !== subscriptionId || !e.group?.startsWith(RUN_PREFIX)) continue;
    if (!latest || e.createdAt > latest.createdAt) latest = e;
  }
  return latest?.group ?? null;
}
