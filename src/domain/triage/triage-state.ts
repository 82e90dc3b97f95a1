import type { StoredItem } from '../store';

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

/**
 * What triage reads of a recorded decision. The outbox's entry has more; the domain names only
 * these fields, so it imports no feature (the rows carry the caller's own entry type).
 */
export interface DecisionOnItem {
  itemId: string;
  subscriptionId: string;
  decision: 'adopt' | 'dispute';
  reason?: string | undefined;
  state: string;
  recorded?: string | undefined;
  createdAt: number;
  /** A teammate's decision (through a team hub): who made it. */
  decidedBy?: string | undefined;
}

/** One stored item with its triage state and the latest decision recorded on it (if any). */
export interface TriageRow<E extends DecisionOnItem = DecisionOnItem> {
  item: StoredItem;
  state: TriageState;
  entry?: E;
  /** When the decision was recorded here (ms), or null for undecided items and the service's own decisions. */
  decidedAt: number | null;
}

function triageStateOf(item: Pick<StoredItem, 'serverDecision'>, entry: DecisionOnItem | undefined): TriageState {
  if (item.serverDecision) return item.serverDecision === 'adopt' ? 'adopted' : 'disputed';
  if (!entry) return 'undecided';
  switch (entry.state) {
    case 'sent':
    case 'decided-team':
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
    case 'dropped-team':
      return 'discarded';
    default:
      return 'waiting';
  }
}

/** The latest entry per item (a newer decision on an item replaces an older one). */
function latestEntries<E extends DecisionOnItem>(entries: readonly E[]): Map<string, E> {
  const map = new Map<string, E>();
  for (const entry of entries) {
    const current = map.get(entry.itemId);
    if (!current || current.createdAt <= entry.createdAt) map.set(entry.itemId, entry);
  }
  return map;
}

/** Joins stored items with the outbox's decisions of the same subscription. */
export function toTriageRows<E extends DecisionOnItem>(items: readonly StoredItem[], entries: readonly E[]): TriageRow<E>[] {
  const latest = latestEntries(entries);
  return items.map((item) => {
    const entry = latest.get(item.itemId);
    const usable = entry && entry.subscriptionId === item.subscriptionId ? entry : undefined;
    const state = triageStateOf(item, usable);
    return { item, state, ...(usable ? { entry: usable } : {}), decidedAt: usable && state !== 'undecided' ? usable.createdAt : null };
  });
}
