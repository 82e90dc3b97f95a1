import { usdToMicros } from '../../lib/money';
import type { StoredItem } from '../local-store';
import { LIST_FACETS, RANGE_KEYS, splitList, type ListFacet, type RangeFacet, type SortField, type TriageFilters } from './search';
import { TRIAGE_STATES, type TriageRow } from './triage-state';

/**
 * The query engine of the items view: filter, facet counts and sort over a subscription's rows in
 * memory. It runs on every filter change at up to 100,000 rows, so each function is one pass over
 * the rows with the filters compiled once beforehand, and nothing is allocated per row that need
 * not be (bench/triage-bench.ts measures it in Chromium).
 */

/** Lower-cased text of each item's delivered content, by item ID (text-index.ts builds it). */
export type TextIndex = ReadonlyMap<string, string>;

type Facet = ListFacet | RangeFacet | 'q';
interface Predicate {
  facet: Facet;
  test: (row: TriageRow) => boolean;
}

const LIST_FIELDS: Record<Exclude<ListFacet, 'state'>, keyof StoredItem> = {
  grade: 'qualityGrade',
  source: 'source',
  task: 'taskId',
  campaign: 'campaignId',
  vertical: 'verticalId',
  topic: 'topicId',
};

/** The value a list facet counts for a row (null: the item has none, e.g. a live item's vertical). */
export function listValue(row: TriageRow, facet: ListFacet): string | null {
  return facet === 'state' ? row.state : (row.item[LIST_FIELDS[facet]] as string | null);
}

const NUMBER_FIELDS = { quality: 'qualityScore', price: 'priceMicros', validators: 'validatorCount', consensus: 'consensusRatio' } as const;

/** The start of a local day in ms (received-at is this browser's clock, so its days are the user's). */
function localDayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** A USD bound as integer micro-USD; a bound too large to be money reads as no bound. */
function microsOrUndefined(usd: number | undefined): number | undefined {
  if (usd === undefined) return undefined;
  try {
    return usdToMicros(usd);
  } catch {
    return undefined;
  }
}

function numberRange(field: keyof StoredItem, min: number | undefined, max: number | undefined) {
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  return (row: TriageRow) => {
    const value = row.item[field] as number | null;
    return value !== null && value >= lo && value <= hi;
  };
}

/** The filters as predicates, one per filter that is set (compiled once per call, not per row). */
function compile(filters: TriageFilters, textIndex: TextIndex | undefined): Predicate[] {
  const predicates: Predicate[] = [];
  for (const facet of LIST_FACETS) {
    const values = splitList(filters[facet]);
    if (values.length === 0) continue;
    const wanted = new Set(values);
    if (facet === 'state') predicates.push({ facet, test: (row) => wanted.has(row.state) });
    else {
      const field = LIST_FIELDS[facet];
      predicates.push({ facet, test: (row) => wanted.has(row.item[field] as string) });
    }
  }
  for (const facet of ['quality', 'validators', 'consensus'] as const) {
    const [minKey, maxKey] = RANGE_KEYS[facet];
    const min = filters[minKey];
    const max = filters[maxKey];
    if (min !== undefined || max !== undefined) predicates.push({ facet, test: numberRange(NUMBER_FIELDS[facet], min, max) });
  }
  const priceMin = microsOrUndefined(filters.price_min);
  const priceMax = microsOrUndefined(filters.price_max);
  if (priceMin !== undefined || priceMax !== undefined) predicates.push({ facet: 'price', test: numberRange('priceMicros', priceMin, priceMax) });
  if (filters.created_from || filters.created_to) {
    // ISO timestamps compare as text; the day is the timestamp's own (as the service wrote it).
    const from = filters.created_from ?? '';
    const to = filters.created_to ? `${filters.created_to}\uffff` : '\uffff';
    predicates.push({
      facet: 'created',
      test: (row) => {
        const created = row.item.createdAt;
        return created !== null && created >= from && created <= to;
      },
    });
  }
  if (filters.received_from || filters.received_to) {
    const from = filters.received_from ? localDayStart(filters.received_from) : -Infinity;
    const to = filters.received_to ? localDayStart(filters.received_to) + 86_400_000 : Infinity;
    predicates.push({ facet: 'received', test: (row) => row.item.receivedAt >= from && row.item.receivedAt < to });
  }
  const q = filters.q?.trim().toLowerCase();
  // Until the content index is built, the text filter waits (the page says it is searching).
  if (q && textIndex) {
    predicates.push({ facet: 'q', test: (row) => row.item.itemId.toLowerCase().includes(q) || (textIndex.get(row.item.itemId)?.includes(q) ?? false) });
  }
  return predicates;
}

/** The rows every filter lets through, in the order given. */
export function filterRows(rows: readonly TriageRow[], filters: TriageFilters, textIndex?: TextIndex): TriageRow[] {
  const predicates = compile(filters, textIndex);
  if (predicates.length === 0) return rows.slice();
  const out: TriageRow[] = [];
  outer: for (const row of rows) {
    for (const p of predicates) if (!p.test(row)) continue outer;
    out.push(row);
  }
  return out;
}

export interface Bounds<T> {
  min: T | null;
  max: T | null;
}
export interface Facets {
  /** Rows matching every filter. */
  matching: number;
  /** Per list facet, how many rows have each value among those matching every OTHER filter. */
  lists: Record<ListFacet, Map<string, number>>;
  /** Per range facet, its smallest and largest value among the rows matching every other filter. */
  ranges: Record<Exclude<RangeFacet, 'created'>, Bounds<number>> & { created: Bounds<string> };
}

/**
 * Counts per value of every list facet, each with all the OTHER filters applied (a facet's own
 * selection never hides its other values), and the bounds of every range. One pass: a row that
 * fails two filters counts nowhere; one that fails exactly one counts only for that filter's
 * facet; one that fails none counts everywhere.
 */
export function facetCounts(rows: readonly TriageRow[], filters: TriageFilters, textIndex?: TextIndex): Facets {
  const predicates = compile(filters, textIndex);
  const lists = Object.fromEntries(LIST_FACETS.map((f) => [f, new Map<string, number>()])) as Record<ListFacet, Map<string, number>>;
  const ranges: Facets['ranges'] = {
    quality: { min: null, max: null },
    price: { min: null, max: null },
    validators: { min: null, max: null },
    consensus: { min: null, max: null },
    received: { min: null, max: null },
    created: { min: null, max: null },
  };
  const count = (row: TriageRow, facet: Facet) => {
    switch (facet) {
      case 'q':
        return;
      case 'quality':
      case 'price':
      case 'validators':
      case 'consensus': {
        const value = row.item[NUMBER_FIELDS[facet]];
        if (value === null) return;
        const bounds = ranges[facet];
        if (bounds.min === null || value < bounds.min) bounds.min = value;
        if (bounds.max === null || value > bounds.max) bounds.max = value;
        return;
      }
      case 'received': {
        const bounds = ranges.received;
        const value = row.item.receivedAt;
        if (bounds.min === null || value < bounds.min) bounds.min = value;
        if (bounds.max === null || value > bounds.max) bounds.max = value;
        return;
      }
      case 'created': {
        const value = row.item.createdAt;
        if (value === null) return;
        const bounds = ranges.created;
        if (bounds.min === null || value < bounds.min) bounds.min = value;
        if (bounds.max === null || value > bounds.max) bounds.max = value;
        return;
      }
      default: {
        const value = listValue(row, facet);
        if (value === null) return;
        const map = lists[facet];
        map.set(value, (map.get(value) ?? 0) + 1);
      }
    }
  };
  const all: Facet[] = [...LIST_FACETS, 'quality', 'price', 'validators', 'consensus', 'received', 'created'];
  let matching = 0;
  const n = predicates.length;
  for (const row of rows) {
    let failed = -1;
    let fails = 0;
    for (let i = 0; i < n; i++) {
      if (!predicates[i]!.test(row)) {
        failed = i;
        if (++fails > 1) break;
      }
    }
    if (fails === 0) {
      matching++;
      for (const facet of all) count(row, facet);
    } else if (fails === 1) count(row, predicates[failed]!.facet);
  }
  return { matching, lists, ranges };
}

const STATE_ORDER = new Map(TRIAGE_STATES.map((s, i) => [s, i]));

/** Numbers compare as numbers, digit-only IDs by length first ("999" before "1002"), other text by code unit. */
function compareText(a: string, b: string): number {
  if (a.length !== b.length && isDigits(a) && isDigits(b)) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return text.length > 0;
}

type Key = number | string | null;
function sortKey(row: TriageRow, field: SortField): Key {
  const item = row.item;
  switch (field) {
    case 'id':
      return item.itemId;
    case 'state':
      return STATE_ORDER.get(row.state)!;
    case 'task':
      return item.taskId ?? item.verticalId;
    case 'grade':
      return item.qualityGrade;
    case 'quality':
      return item.qualityScore;
    case 'source':
      return item.source;
    case 'price':
      return item.priceMicros;
    case 'received':
      return item.seq;
    case 'created':
      return item.createdAt;
    case 'validators':
      return item.validatorCount;
    case 'consensus':
      return item.consensusRatio;
  }
}

/**
 * The rows sorted by one field, stable (ties keep delivery order, whatever the direction); items
 * without the field (null) come last either way. Keys are read once into an array and an array
 * of positions is sorted, so the comparator does no property lookups.
 */
export function sortRows(rows: readonly TriageRow[], field: SortField = 'received', dir: 'asc' | 'desc' = 'asc'): TriageRow[] {
  const n = rows.length;
  const keys: Key[] = new Array<Key>(n);
  for (let i = 0; i < n; i++) keys[i] = sortKey(rows[i]!, field);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const sign = dir === 'desc' ? -1 : 1;
  order.sort((i, j) => {
    const a = keys[i]!;
    const b = keys[j]!;
    if (a === b) return i - j;
    if (a === null) return 1;
    if (b === null) return -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : compareText(String(a), String(b));
    return c === 0 ? i - j : sign * c;
  });
  const out = new Array<TriageRow>(n);
  for (let i = 0; i < n; i++) out[i] = rows[order[i]!]!;
  return out;
}
