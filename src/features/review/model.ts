import type { DeliveryItem, LiveSubmission, SimulatedItem } from '../../api/contract';
import { formatMicros, usdToMicros } from '../../lib/money';
import type { OutboxEntry } from '../outbox';

/** One delivered item as the review workspace shows it, whatever family it comes from. */
export interface ReviewItem {
  key: string;
  id: string;
  kind: 'live' | 'simulated';
  subscriptionId: string;
  title: string;
  content: unknown;
  serverState: 'new' | 'adopted' | 'disputed';
  priceMicros: number | null;
  meta: readonly { label: string; value: string }[];
}

export function fromLive(s: LiveSubmission, subscriptionId: string): ReviewItem {
  return {
    key: `live:${s.submission_id}`,
    id: s.submission_id,
    kind: 'live',
    subscriptionId,
    title: `Submission ${s.submission_id}`,
    content: s.data,
    serverState: s.consumer_feedback === 'adopt' ? 'adopted' : s.consumer_feedback === 'dispute' ? 'disputed' : 'new',
    priceMicros: null,
    meta: [
      { label: 'Quality', value: `${s.quality_score} (${s.quality_grade})` },
      { label: 'Source', value: s.source },
      { label: 'Created', value: s.created_at },
      { label: 'Task', value: s.task_id },
      ...(s.campaign_id ? [{ label: 'Campaign', value: s.campaign_id }] : []),
    ],
  };
}

export function fromSimulated(item: SimulatedItem | DeliveryItem, subscriptionId: string): ReviewItem {
  const status = 'status' in item ? item.status : 'pending';
  const priceMicros = usdToMicros(item.unit_price_usd);
  return {
    key: `simulated:${item.id}`,
    id: item.id,
    kind: 'simulated',
    subscriptionId,
    title: item.id.length <= 13 ? `Item ${item.id}` : `Item ${item.id.slice(0, 8)}…`,
    content: item.payload,
    serverState: status === 'adopted' ? 'adopted' : status === 'disputed' ? 'disputed' : 'new',
    priceMicros,
    meta: [
      { label: 'Price', value: formatMicros(priceMicros) },
      { label: 'Quality', value: `${item.quality_score} (${item.quality_method})` },
      { label: 'Consensus', value: `${Math.round(item.consensus_ratio * 1000) / 10}% of ${item.validator_count} validators` },
      { label: 'Created', value: item.created_at },
    ],
  };
}

export type DisplayState = 'new' | 'adopted' | 'disputed' | 'waiting' | 'failed';

export const STATE_LABELS: Record<DisplayState, string> = {
  new: 'new',
  adopted: 'adopted',
  disputed: 'disputed',
  waiting: 'waiting to send',
  failed: 'failed',
};

/** What the user sees for an item: the outbox's word first, then the server's. */
export function displayState(item: ReviewItem, entry: OutboxEntry | undefined): DisplayState {
  if (item.serverState !== 'new') return item.serverState;
  if (!entry) return 'new';
  switch (entry.state) {
    case 'sent':
      return entry.decision === 'adopt' ? 'adopted' : 'disputed';
    case 'failed':
    case 'conflict':
      return 'failed';
    case 'expired':
      return 'new';
    default:
      return 'waiting';
  }
}

/** The latest outbox entry per item id. */
export function entriesByItem(entries: readonly OutboxEntry[]): Map<string, OutboxEntry> {
  const map = new Map<string, OutboxEntry>();
  for (const entry of entries) {
    const current = map.get(entry.itemId);
    if (!current || current.createdAt <= entry.createdAt) map.set(entry.itemId, entry);
  }
  return map;
}
