import type { Receipt } from '../../api/contract';
import { sumMicros, usdToMicros } from '../../lib/money';
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

/** The UTC day of a timestamp, `YYYY-MM-DD`; timestamps without a zone are read as UTC. */
export function dayOf(timestamp: string): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(timestamp)) return timestamp.slice(0, 10);
  const parsed = new Date(timestamp);
  return Number.isNaN(parsed.getTime()) ? 'unknown' : parsed.toISOString().slice(0, 10);
}

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

/** Spend per day, stacked by subscription: rows of { day, [subscription]: micros }. */
export function dailySpend(receipts: readonly Receipt[]): { days: { day: string; bySubscription: Record<string, number>; total: number }[]; subscriptions: string[] } {
  const subscriptions = [...new Set(receipts.map((r) => r.subscription_id))].sort();
  const days = new Map<string, Record<string, number>>();
  for (const r of receipts) {
    const day = dayOf(r.created_at);
    const row = days.get(day) ?? {};
    row[r.subscription_id] = sumMicros([row[r.subscription_id] ?? 0, receiptMicros(r)]);
    days.set(day, row);
  }
  return {
    subscriptions,
    days: [...days.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, bySubscription]) => ({ day, bySubscription, total: sumMicros(Object.values(bySubscription)) })),
  };
}

/** Rows for CSV and JSON export: every field, amounts as exact decimal text. */
export function exportRows(receipts: readonly Receipt[], columns: readonly string[]) {
  return receipts.map((r) => {
    const row: Record<string, unknown> = {};
    for (const column of columns) row[column] = column === 'amount_usd' ? formatDecimal(receiptMicros(r)) : (r as Record<string, unknown>)[column];
    return row;
  });
}

/** 12500 → "0.0125": exact decimal text of micro-USD, no currency sign (for files). */
export function formatDecimal(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const fraction = String(abs % 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return `${sign}${Math.floor(abs / 1_000_000)}${fraction ? `.${fraction}` : ''}`;
}
