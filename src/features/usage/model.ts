import type { Receipt } from '../../api/contract';
import { dayOf, ISO_DAY } from '../../lib/day';
import { microsToDecimal, sumMicros, usdToMicros } from '../../lib/money';
import type { UsageSearch } from './search';

/** The receipt fields we know (docs/contract.md); anything else a server sends is shown too. */
export const KNOWN_RECEIPT_FIELDS = ['created_at', 'subscription_id', 'kind', 'item_id', 'submission_id', 'quantity', 'amount_usd', 'receipt_id'] as const;

export function extraFields(receipts: readonly Receipt[]): string[] {
  const known = new Set<string>(KNOWN_RECEIPT_FIELDS);
  const extra = new Set<string>();
  for (const receipt of receipts) for (const key of Object.keys(receipt)) if (!known.has(key)) extra.add(key);
  return [...extra].sort();
}

export const receiptMicros = (receipt: Receipt) => usdToMicros(receipt.amount_usd);

export function filterReceipts(receipts: readonly Receipt[], search: Pick<UsageSearch, 'sub' | 'kind' | 'from' | 'to'>): Receipt[] {
  return receipts.filter((r) => {
    if (search.sub && r.subscription_id !== search.sub) return false;
    if (search.kind && r.kind !== search.kind) return false;
    const day = dayOf(r.created_at);
    if (search.from && day < search.from) return false;
    if (search.to && day > search.to) return false;
    return true;
  });
}

export interface Total {
  key: string;
  receipts: number;
  quantity: number;
  micros: number;
}

function totalsBy(receipts: readonly Receipt[], keyOf: (r: Receipt) => string): Total[] {
  const groups = new Map<string, Receipt[]>();
  for (const r of receipts) {
    const key = keyOf(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.entries()]
    .map(([key, list]) => ({ key, receipts: list.length, quantity: list.reduce((s, r) => s + r.quantity, 0), micros: sumMicros(list.map(receiptMicros)) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

export const totalsBySubscription = (receipts: readonly Receipt[]) => totalsBy(receipts, (r) => r.subscription_id);
export const totalsByDay = (receipts: readonly Receipt[]) => totalsBy(receipts, (r) => dayOf(r.created_at));

/** At most this many days are drawn as one continuous axis (two years); a wider range shows only days with spend. */
export const MAX_AXIS_DAYS = 731;
const DAY_MS = 86_400_000;

/** Every day from `first` to `last` (both `YYYY-MM-DD`, UTC), or null when that is more than `max` days. */
export function daysBetween(first: string, last: string, max = MAX_AXIS_DAYS): string[] | null {
  const start = Date.parse(`${first}T00:00:00Z`);
  const end = Date.parse(`${last}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return null;
  const count = Math.round((end - start) / DAY_MS) + 1;
  if (count > max) return null;
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

export interface DailySpend {
  /** One row per day: a continuous axis from the first to the last day (or the filter's range), empty days included. */
  days: { day: string; bySubscription: Record<string, number>; total: number }[];
  subscriptions: string[];
  /** False when the range was too wide to draw every day, so only days with spend are listed. */
  continuous: boolean;
}

/** Spend per day, stacked by subscription, on a continuous day axis. */
export function dailySpend(receipts: readonly Receipt[], range: { from?: string; to?: string } = {}): DailySpend {
  const subscriptions = [...new Set(receipts.map((r) => r.subscription_id))].sort();
  const spent = new Map<string, Record<string, number>>();
  for (const r of receipts) {
    const day = dayOf(r.created_at);
    const row = spent.get(day) ?? {};
    row[r.subscription_id] = sumMicros([row[r.subscription_id] ?? 0, receiptMicros(r)]);
    spent.set(day, row);
  }
  const seen = [...spent.keys()].filter((day) => ISO_DAY.test(day)).sort();
  const first = range.from ?? seen[0];
  const last = range.to ?? seen.at(-1);
  const axis = first && last ? daysBetween(first, last) : null;
  const keys = axis ?? [...spent.keys()].sort();
  // A day with spend outside the axis (an unreadable time, or a range that does not cover it) keeps its row.
  if (axis) {
    const onAxis = new Set(axis);
    for (const day of [...spent.keys()].sort()) if (!onAxis.has(day)) keys.push(day);
  }
  return {
    subscriptions,
    continuous: axis !== null || keys.length === 0,
    days: keys.map((day) => {
      const bySubscription = spent.get(day) ?? {};
      return { day, bySubscription, total: sumMicros(Object.values(bySubscription)) };
    }),
  };
}

/**
 * A colour per subscription that depends on its ID alone, so it stays when other subscriptions
 * come and go: one of 24 hues, 15° apart, at two lightnesses (48 colours, so two subscriptions
 * of one organization rarely share one).
 */
export function subscriptionColor(subscriptionId: string): string {
  let hash = 2166136261;
  for (let i = 0; i < subscriptionId.length; i++) hash = Math.imul(hash ^ subscriptionId.charCodeAt(i), 16777619);
  const slot = (hash >>> 0) % 48;
  return `hsl(${(slot % 24) * 15} 70% ${slot < 24 ? 42 : 55}%)`;
}

/** Rows for CSV and JSON export: every field, amounts as exact decimal text. */
export function exportRows(receipts: readonly Receipt[], columns: readonly string[]) {
  return receipts.map((r) => {
    const row: Record<string, unknown> = {};
    for (const column of columns) row[column] = column === 'amount_usd' ? microsToDecimal(receiptMicros(r)) : (r as Record<string, unknown>)[column];
    return row;
  });
}
