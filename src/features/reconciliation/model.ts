import type { DeliveryItem, Receipt } from '../../api/contract';
import { dayOf } from '../../lib/day';
import { sumMicros, usdToMicros } from '../../lib/money';

/**
 * Reconciliation: what adoptions should have cost against what the receipts charged.
 * Everything is integer micro-USD.
 */
interface KnownItem {
  item: DeliveryItem;
  subscriptionId: string;
}

/** A simulated adopt this console saw confirmed (from its outbox). */
interface ConfirmedAdopt {
  itemId: string;
  subscriptionId: string;
  priceMicros: number;
  at: string;
}

export interface ReconcileInput {
  receipts: readonly Receipt[];
  /** False when the receipts are only the latest N and older ones may exist. */
  receiptsComplete: boolean;
  items: readonly KnownItem[];
  confirmed: readonly ConfirmedAdopt[];
}

export type MismatchKind = 'charged-not-adopted' | 'adopted-not-charged' | 'amount-differs' | 'charged-twice';

interface Mismatch {
  kind: MismatchKind;
  itemId: string | null;
  subscriptionId: string;
  expectedMicros: number;
  actualMicros: number;
  detail: string;
  receiptIds: string[];
}

interface DayRow {
  subscriptionId: string;
  day: string;
  expectedMicros: number;
  actualMicros: number;
  adoptions: number;
  receipts: number;
}

export interface Reconciliation {
  rows: DayRow[];
  mismatches: Mismatch[];
  /** Adoptions older than the oldest receipt shown: they cannot be checked. */
  unchecked: number;
  windowStart: string | null;
}

interface Adoption {
  itemId: string;
  subscriptionId: string;
  priceMicros: number;
  at: string | null;
}

export function reconcile(input: ReconcileInput): Reconciliation {
  const windowStart = input.receiptsComplete || input.receipts.length === 0 ? null : input.receipts.map((r) => r.created_at).sort()[0]!;

  // Expected: every adopted item we know of, from the deliveries or our own confirmed decisions.
  const adoptions = new Map<string, Adoption>();
  const statusOf = new Map<string, string>();
  for (const { item, subscriptionId } of input.items) {
    statusOf.set(item.id, item.status);
    if (item.status === 'adopted') {
      adoptions.set(item.id, { itemId: item.id, subscriptionId, priceMicros: usdToMicros(item.unit_price_usd), at: item.decided_at ?? null });
    }
  }
  for (const c of input.confirmed) {
    if (!adoptions.has(c.itemId)) adoptions.set(c.itemId, { itemId: c.itemId, subscriptionId: c.subscriptionId, priceMicros: c.priceMicros, at: c.at });
    statusOf.set(c.itemId, 'adopted');
  }

  // Adoptions before the receipts' window cannot be matched; without a decision time we cannot tell.
  let unchecked = 0;
  const checked = [...adoptions.values()].filter((a) => {
    if (!windowStart) return true;
    if (a.at && a.at >= windowStart) return true;
    unchecked++;
    return false;
  });

  const receiptsByItem = new Map<string, Receipt[]>();
  const mismatches: Mismatch[] = [];
  for (const receipt of input.receipts) {
    const amount = usdToMicros(receipt.amount_usd);
    if (receipt.kind === 'adopt' && receipt.item_id) {
      const list = receiptsByItem.get(receipt.item_id);
      if (list) list.push(receipt);
      else receiptsByItem.set(receipt.item_id, [receipt]);
    } else if (amount > 0) {
      mismatches.push({
        kind: 'charged-not-adopted',
        itemId: receipt.item_id ?? receipt.submission_id ?? null,
        subscriptionId: receipt.subscription_id,
        expectedMicros: 0,
        actualMicros: amount,
        detail: `a ${receipt.kind} receipt charged without an adoption`,
        receiptIds: [receipt.receipt_id],
      });
    }
  }

  for (const [itemId, receipts] of receiptsByItem) {
    const adoption = adoptions.get(itemId);
    const actual = sumMicros(receipts.map((r) => usdToMicros(r.amount_usd)));
    const base = { itemId, subscriptionId: receipts[0]!.subscription_id, actualMicros: actual, receiptIds: receipts.map((r) => r.receipt_id) };
    if (!adoption) {
      const status = statusOf.get(itemId);
      mismatches.push({
        ...base,
        kind: 'charged-not-adopted',
        expectedMicros: 0,
        detail: status ? `charged, but the item is ${status}` : 'charged for an item not found among the deliveries shown as adopted',
      });
    } else if (receipts.length > 1) {
      mismatches.push({ ...base, kind: 'charged-twice', expectedMicros: adoption.priceMicros, detail: `charged ${receipts.length} times` });
    } else if (actual !== adoption.priceMicros) {
      mismatches.push({ ...base, kind: 'amount-differs', expectedMicros: adoption.priceMicros, detail: 'the charge differs from the unit price' });
    }
  }
  for (const adoption of checked) {
    if (!receiptsByItem.has(adoption.itemId)) {
      mismatches.push({
        kind: 'adopted-not-charged',
        itemId: adoption.itemId,
        subscriptionId: adoption.subscriptionId,
        expectedMicros: adoption.priceMicros,
        actualMicros: 0,
        detail: 'adopted, but no receipt charges it',
        receiptIds: [],
      });
    }
  }

  // Per subscription and day: expected from adoptions, actual from every receipt.
  const rows = new Map<string, DayRow>();
  const row = (subscriptionId: string, d: string) => {
    const key = `${subscriptionId}\u0000${d}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { subscriptionId, day: d, expectedMicros: 0, actualMicros: 0, adoptions: 0, receipts: 0 }));
    return r;
  };
  for (const a of checked) {
    const r = row(a.subscriptionId, a.at ? dayOf(a.at) : 'unknown');
    r.expectedMicros = sumMicros([r.expectedMicros, a.priceMicros]);
    r.adoptions++;
  }
  for (const receipt of input.receipts) {
    const r = row(receipt.subscription_id, dayOf(receipt.created_at));
    r.actualMicros = sumMicros([r.actualMicros, usdToMicros(receipt.amount_usd)]);
    r.receipts++;
  }
  return {
    rows: [...rows.values()].sort((a, b) => b.day.localeCompare(a.day) || a.subscriptionId.localeCompare(b.subscriptionId)),
    mismatches,
    unchecked,
    windowStart,
  };
}
