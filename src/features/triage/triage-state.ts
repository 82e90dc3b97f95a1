import type { StoredItem } from '../local-store';
import type { OutboxEntry } from '../outbox';

/**
 * Where an item stands for triage, from the local store's row and the outbox's latest decision
 * on it. The service's own decision (a record that carried one) wins; then the outbox's word.
 */
export const TRIAGE_STATES = ['undecided', 'adopted', 'disputed', 'waiting', 'failed', 'discarded'] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];

export const TRIAGE_STATE_LABELS: Record<TriageState, string> = {
  undecided: 'Undecided',
  adopted: 'Adopted',
  disputed: 'Disputed',
  waiting: 'Waiting to send',
  failed: 'Failed',
  discarded: 'Discarded',
};

/** One stored item with its triage state and the latest decision recorded on it (if any). */
export interface TriageRow {
  item: StoredItem;
  state: TriageState;
  entry?: OutboxEntry;
  /** When the decision was recorded here (ms), or null for undecided items and the service's own decisions. */
  decidedAt: number | null;
}

function triageStateOf(item: Pick<StoredItem, 'serverDecision'>, entry: OutboxEntry | undefined): TriageState {
  if (item.serverDecision) return item.serverDecision === 'adopt' ? 'adopted' : 'disputed';
  if (!entry) return 'undecided';
  switch (entry.state) {
    case 'sent':
      return entry.decision === 'adopt' ? 'adopted' : 'disputed';
    case 'conflict':
      // The service holds another decision: the one it recorded is the item's.
      if (entry.recorded === 'adopt' || entry.recorded === 'adopted') return 'adopted';
      if (entry.recorded === 'dispute' || entry.recorded === 'disputed') return 'disputed';
      return 'failed';
    case 'failed':
    case 'expired':
      return 'failed';
    case 'discarded':
      return 'discarded';
    default:
      return 'waiting';
  }
}

/** The latest entry per item (a newer decision on an item replaces an older one). */
function latestEntries(entries: readonly OutboxEntry[]): Map<string, OutboxEntry> {
  const map = new Map<string, OutboxEntry>();
  for (const entry of entries) {
    const current = map.get(entry.itemId);
    if (!current || current.createdAt <= entry.createdAt) map.set(entry.itemId, entry);
  }
  return map;
}

/** Joins stored items with the outbox's decisions of the same subscription. */
export function toTriageRows(items: readonly StoredItem[], entries: readonly OutboxEntry[]): TriageRow[] {
  const latest = latestEntries(entries);
  return items.map((item) => {
    const entry = latest.get(item.itemId);
    const usable = entry && entry.subscriptionId === item.subscriptionId ? entry : undefined;
    const state = triageStateOf(item, usable);
    return { item, state, ...(usable ? { entry: usable } : {}), decidedAt: usable && state !== 'undecided' ? usable.createdAt : null };
  });
}
