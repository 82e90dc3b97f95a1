import type { DeliveryItem, LiveSubmission, SimulatedItem } from '../../api/contract';
import { taskFrontier, taskName, topicName, verticalName, type Names } from '../../data';
import { formatMicros, sumMicros, usdToMicros } from '../../lib/money';
import type { StoredItem } from '../../domain/store';
import { isHubOwned, isTeammates, phaseOf } from '../../domain/outbox/transitions';
import type { OutboxEntry } from '../../domain/outbox/model';

/** One delivered item as the review workspace shows it, whatever family it comes from. */
export interface ReviewItem {
  key: string;
  id: string;
  kind: 'live' | 'simulated';
  subscriptionId: string;
  title: string;
  /**
   * The delivered content, when it came with the item (a re-read page). Items listed from the
   * local store carry none: their content is read for the item on screen (content-cache.ts).
   */
  content?: unknown;
  /** The local store's scope the item is kept in (where its content can be read). */
  scope?: string;
  serverState: 'new' | 'adopted' | 'disputed';
  priceMicros: number | null;
  /** What tells rows apart at a glance: the task or vertical and the grade or quality. */
  summary: string;
  /**
   * The item's metadata lines, built when the item is shown: a list builds one item per row it
   * holds (a pull's 200 before their first paint, a subscription's 100,000 on a load), and only
   * the focused one is shown (bench:ui, a pull's answer → its items painted).
   */
  meta: () => readonly MetaField[];
  /** What the item belongs to, by ID: shown by name (itemSummary, itemMeta), the ID a hover away. */
  taskId?: string | null;
  verticalId?: string | null;
  topicId?: string | null;
  /** Quality grade and score, when the item carries them (shown as coloured badges). */
  grade?: string | null;
  score?: number | null;
}

/** One line of an item's metadata; `ref` marks an ID that has a name (the name is shown, the ID is its title). */
export interface MetaField {
  label: string;
  value: string;
  ref?: 'task' | 'vertical' | 'topic';
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
    grade: s.quality_grade,
    score: s.quality_score,
    summary: `Task ${s.task_id} · grade ${s.quality_grade} (${s.quality_score})`,
    taskId: s.task_id,
    meta: () => [
      { label: 'Quality', value: `${s.quality_score} (${s.quality_grade})` },
      { label: 'Source', value: s.source },
      { label: 'Created', value: s.created_at },
      { label: 'Task', value: s.task_id, ref: 'task' },
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
    // The whole ID: the list truncates it visually, the detail header wraps it.
    title: `Item ${item.id}`,
    content: item.payload,
    serverState: status === 'adopted' ? 'adopted' : status === 'disputed' ? 'disputed' : 'new',
    priceMicros,
    score: item.quality_score,
    summary: `${item.vertical_id} · quality ${item.quality_score}`,
    verticalId: item.vertical_id,
    topicId: item.topic_id,
    meta: () => [
      { label: 'Vertical', value: item.vertical_id, ref: 'vertical' },
      { label: 'Topic', value: item.topic_id, ref: 'topic' },
      { label: 'Price', value: formatMicros(priceMicros) },
      { label: 'Quality', value: `${item.quality_score} (${item.quality_method})` },
      { label: 'Consensus', value: `${Math.round(item.consensus_ratio * 1000) / 10}% of ${item.validator_count} validators` },
      { label: 'Created', value: item.created_at },
    ],
  };
}

const orDash = (value: string | number | null) => (value === null ? '—' : String(value));

/** An item as the local store keeps it (no content: see content-cache.ts). */
export function fromStored(row: StoredItem): ReviewItem {
  const serverState = row.serverDecision === 'adopt' ? 'adopted' : row.serverDecision === 'dispute' ? 'disputed' : 'new';
  if (row.kind === 'live') {
    return {
      key: `live:${row.itemId}`,
      id: row.itemId,
      kind: 'live',
      subscriptionId: row.subscriptionId,
      scope: row.scope,
      title: `Submission ${row.itemId}`,
      serverState,
      priceMicros: null,
      grade: row.qualityGrade,
      score: row.qualityScore,
      summary: `Task ${orDash(row.taskId)} · grade ${orDash(row.qualityGrade)} (${orDash(row.qualityScore)})`,
      taskId: row.taskId,
      meta: () => [
        { label: 'Quality', value: `${orDash(row.qualityScore)} (${orDash(row.qualityGrade)})` },
        { label: 'Source', value: orDash(row.source) },
        { label: 'Created', value: orDash(row.createdAt) },
        ...(row.taskId !== null ? [{ label: 'Task', value: row.taskId, ref: 'task' as const }] : [{ label: 'Task', value: '—' }]),
        ...(row.campaignId ? [{ label: 'Campaign', value: row.campaignId }] : []),
      ],
    };
  }
  const price = row.priceMicros ?? 0;
  return {
    key: `simulated:${row.itemId}`,
    id: row.itemId,
    kind: 'simulated',
    subscriptionId: row.subscriptionId,
    scope: row.scope,
    title: `Item ${row.itemId}`,
    serverState,
    priceMicros: price,
    score: row.qualityScore,
    summary: `${orDash(row.verticalId)} · quality ${orDash(row.qualityScore)}`,
    verticalId: row.verticalId,
    topicId: row.topicId,
    meta: () => [
      ...(row.verticalId !== null ? [{ label: 'Vertical', value: row.verticalId, ref: 'vertical' as const }] : [{ label: 'Vertical', value: '—' }]),
      ...(row.topicId !== null ? [{ label: 'Topic', value: row.topicId, ref: 'topic' as const }] : []),
      { label: 'Price', value: formatMicros(price) },
      { label: 'Quality', value: `${orDash(row.qualityScore)} (${orDash(row.qualityMethod)})` },
      {
        label: 'Consensus',
        value: row.consensusRatio === null ? '—' : `${Math.round(row.consensusRatio * 1000) / 10}% of ${orDash(row.validatorCount)} validators`,
      },
      { label: 'Created', value: orDash(row.createdAt) },
    ],
  };
}

/** The row's second line with names: "Road object outlines · grade B (0.82)", "Retail products · quality 0.91". */
export function itemSummary(item: ReviewItem, names: Names): string {
  if (item.taskId) return `${taskName(names, item.taskId)} · grade ${orDash(item.grade ?? null)} (${orDash(item.score ?? null)})`;
  if (item.verticalId) return `${verticalName(names, item.verticalId)} · quality ${orDash(item.score ?? null)}`;
  return item.summary;
}

/** A metadata line as read: a name where the ID has one, with the whole ID for its title. */
export function metaText(field: MetaField, names: Names): { text: string; title?: string } {
  switch (field.ref) {
    case 'task': {
      const frontier = taskFrontier(names, field.value);
      return { text: `${taskName(names, field.value)}${frontier ? ` (${frontier})` : ''}`, title: `Task ${field.value}` };
    }
    case 'vertical':
      return { text: verticalName(names, field.value), title: `Vertical ${field.value}` };
    case 'topic':
      return { text: topicName(field.value), title: `Topic ${field.value}` };
    default:
      return { text: field.value };
  }
}

/** What adopting all these items would charge, in micro-USD (live items charge nothing). */
export const totalPrice = (items: readonly ReviewItem[]) => sumMicros(items.map((item) => item.priceMicros ?? 0));

export type DisplayState = 'new' | 'adopted' | 'disputed' | 'waiting' | 'held' | 'held-team' | 'accepted' | 'failed';

export const STATE_LABELS: Record<DisplayState, string> = {
  new: 'new',
  adopted: 'adopted',
  disputed: 'disputed',
  waiting: 'waiting to send',
  // A charged adopt past a budget limit: not queued like the others, never sent until released.
  held: 'held by budget',
  // Through a team hub: the hub keeps it under the team's budget until an admin releases (or someone drops) it.
  'held-team': 'held by the team’s budget',
  // Through a team hub: released, and the hub (not this browser) sends it as soon as the vendor answers.
  accepted: 'accepted by the hub, waiting to send',
  failed: 'failed',
};

/** What the user sees for an item: the outbox's word first, then the server's. */
export function displayState(item: ReviewItem, entry: OutboxEntry | undefined): DisplayState {
  if (item.serverState !== 'new') return item.serverState;
  if (!entry) return 'new';
  switch (phaseOf(entry.state)) {
    case 'confirmed':
      return entry.decision === 'adopt' ? 'adopted' : 'disputed';
    case 'conflict':
      // The service refused because it holds another decision: show the one it recorded.
      return recordedState(entry.recorded) ?? 'failed';
    case 'failed':
      return 'failed';
    case 'expired':
    case 'discarded':
      return 'new';
    case 'held':
      return isHubOwned(entry.state) ? 'held-team' : 'held';
    default:
      return isHubOwned(entry.state) ? 'accepted' : 'waiting';
  }
}

/** Who decided an item when it was a teammate through the team hub (the local part of their email, e.g. "reviewer1"), else undefined. */
export const teammateOf = (entry: Pick<OutboxEntry, 'state' | 'decidedBy'> | undefined): string | undefined =>
  entry && isTeammates(entry.state) ? shortMember(entry.decidedBy ?? 'a teammate') : undefined;

/** The local part of a member's email: a list's row has no room for the whole address (the hover has it). */
const shortMember = (email: string) => (email.includes('@') ? email.slice(0, email.indexOf('@')) : email);

/** A 409's `recorded` ("adopt", "adopted", "dispute", "disputed") as a state. */
function recordedState(recorded: string | undefined): DisplayState | null {
  if (recorded === 'adopt' || recorded === 'adopted') return 'adopted';
  if (recorded === 'dispute' || recorded === 'disputed') return 'disputed';
  return null;
}

/**
 * What this visit was charged: charged adopts the service confirmed since `visitStart`
 * (resumed decisions from an earlier visit included), once per item, leaving out items that
 * were already adopted before (the service answers a repeated adopt with a 200 that charges nothing).
 */
export function visitSpending(entries: readonly OutboxEntry[], alreadyAdopted: ReadonlySet<string>, visitStart: number): number {
  const counted = new Set<string>();
  const charges: number[] = [];
  const sent = entries.filter((e) => e.kind === 'simulated' && e.decision === 'adopt' && e.state === 'sent').sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const entry of sent) {
    if (alreadyAdopted.has(entry.itemId) || counted.has(entry.itemId)) continue;
    counted.add(entry.itemId);
    // Confirmed before this visit (the workspace was left and opened again): that visit's charge.
    if ((entry.sentAt ?? 0) < visitStart) continue;
    charges.push(entry.priceMicros ?? 0);
  }
  // Exact, or OVER_RANGE past the exact integer range (shown as "over $9,007,199,254"), never a rounded float.
  return sumMicros(charges);
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
