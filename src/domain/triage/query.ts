import { lastResult, WeakMemo } from '../../lib/memo';
import { usdToMicros } from '../../lib/money';
import { columnsOf, NUMBER_COLUMNS, subsets, type Columns } from './columns';
import { LIST_FACETS, RANGE_KEYS, splitList, type ListFacet, type RangeFacet, type SortField, type TriageFilters } from './search';
import { TRIAGE_STATES, type TriageRow, type TriageState } from './triage-state';

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
  /** Whether the row at this position (in the columns) passes. */
  test: (i: number) => boolean;
}

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

function numberRange(values: Float64Array, min: number | undefined, max: number | undefined) {
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  // NaN (no value) fails both comparisons: an item without the field never matches a range.
  return (i: number) => {
    const value = values[i]!;
    return value >= lo && value <= hi;
  };
}

/** The filters as predicates over the columns, one per filter that is set (compiled once per call, not per row). */
function compile(filters: TriageFilters, columns: Columns, textIndex: TextIndex | undefined): Predicate[] {
  const predicates: Predicate[] = [];
  for (const facet of LIST_FACETS) {
    const wanted = splitList(filters[facet]);
    if (wanted.length === 0) continue;
    const { codes, lookup, values } = columns.lists[facet];
    const allowed = new Uint8Array(values.length);
    for (const value of wanted) {
      const code = lookup.get(value);
      if (code !== undefined) allowed[code] = 1;
    }
    predicates.push({
      facet,
      test: (i) => {
        const code = codes[i]!;
        return code >= 0 && allowed[code] === 1;
      },
    });
  }
  const { numbers, items } = columns;
  for (const facet of ['quality', 'validators', 'consensus'] as const) {
    const [minKey, maxKey] = RANGE_KEYS[facet];
    const min = filters[minKey];
    const max = filters[maxKey];
    if (min !== undefined || max !== undefined) predicates.push({ facet, test: numberRange(numbers[facet], min, max) });
  }
  const priceMin = microsOrUndefined(filters.price_min);
  const priceMax = microsOrUndefined(filters.price_max);
  if (priceMin !== undefined || priceMax !== undefined) predicates.push({ facet: 'price', test: numberRange(numbers.price, priceMin, priceMax) });
  if (filters.created_from || filters.created_to) {
    // ISO timestamps compare as text; the day is the timestamp's own (as the service wrote it).
    const from = filters.created_from ?? '';
    const to = filters.created_to ? `${filters.created_to}\uffff` : '\uffff';
    predicates.push({
      facet: 'created',
      test: (i) => {
        const created = items[i]!.createdAt;
        return created !== null && created >= from && created <= to;
      },
    });
  }
  if (filters.received_from || filters.received_to) {
    const from = filters.received_from ? localDayStart(filters.received_from) : -Infinity;
    const to = filters.received_to ? localDayStart(filters.received_to) + 86_400_000 : Infinity;
    const received = numbers.received;
    predicates.push({ facet: 'received', test: (i) => received[i]! >= from && received[i]! < to });
  }
  const q = filters.q?.trim().toLowerCase();
  // Until the content index is built, the text filter waits (the page says it is searching).
  if (q && textIndex) {
    const mask = textMask(columns, textIndex, q);
    predicates.push({ facet: 'q', test: (i) => mask[i] === 1 });
  }
  return predicates;
}

/**
 * Which rows contain the text: one pass over the content, kept for the last search, so the filter
 * and the facet counts of one change (and a sort) do not search twice. The content is read into
 * an array in row order once per rows and index, so later searches make no map lookups (an index
 * grows only by the pages of new items, which come with new rows, so new columns).
 */
const texts = new WeakMemo<TextIndex, WeakMemo<Columns, string[]>>();
const textMask = lastResult((columns: Columns, index: TextIndex, q: string): Uint8Array => {
  const aligned = texts.of(index, () => new WeakMemo()).of(columns, () => columns.items.map((item) => index.get(item.itemId) ?? ''));
  const mask = new Uint8Array(columns.n);
  for (let i = 0; i < columns.n; i++) if (aligned[i]!.includes(q) || columns.items[i]!.itemId.includes(q)) mask[i] = 1;
  return mask;
});

/** The rows every filter lets through, in the order given. */
export function filterRows(rows: readonly TriageRow[], filters: TriageFilters, textIndex?: TextIndex): TriageRow[] {
  const columns = columnsOf(rows);
  const predicates = compile(filters, columns, textIndex);
  const n = rows.length;
  const p = predicates.length;
  const indices = new Int32Array(n);
  let m = 0;
  outer: for (let i = 0; i < n; i++) {
    for (let k = 0; k < p; k++) if (!predicates[k]!.test(i)) continue outer;
    indices[m++] = i;
  }
  const out = new Array<TriageRow>(m);
  for (let k = 0; k < m; k++) out[k] = rows[indices[k]!]!;
  // sortRows reads the subset's values from the full rows' columns.
  subsets.set(out, { columns, indices: indices.subarray(0, m) });
  return out;
}

interface Bounds<T> {
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
 * facet; one that fails none counts everywhere. Counts go into typed arrays by value code.
 */
export function facetCounts(rows: readonly TriageRow[], filters: TriageFilters, textIndex?: TextIndex): Facets {
  const columns = columnsOf(rows);
  const predicates = compile(filters, columns, textIndex);
  const F = LIST_FACETS.length;
  const codes = LIST_FACETS.map((f) => columns.lists[f].codes);
  const counts = LIST_FACETS.map((f) => new Int32Array(columns.lists[f].values.length));
  const N = NUMBER_COLUMNS.length;
  const numbers = NUMBER_COLUMNS.map((c) => columns.numbers[c]);
  const mins = new Float64Array(N).fill(Infinity);
  const maxs = new Float64Array(N).fill(-Infinity);
  // created_at bounds: the positions of the earliest and latest (compared as ms), read as text at the end.
  const created = columns.created;
  let createdMin = -1;
  let createdMax = -1;
  const { items } = columns;
  // Where the one filter a row fails counts it: a list facet, a number column, `created`, or nowhere (text).
  const target = predicates.map((p) => {
    const list = (LIST_FACETS as readonly string[]).indexOf(p.facet);
    if (list >= 0) return list;
    const number = (NUMBER_COLUMNS as readonly string[]).indexOf(p.facet);
    if (number >= 0) return F + number;
    return p.facet === 'created' ? F + N : -1;
  });
  const n = rows.length;
  // Each filter in its own tight loop (one function at one call site), recording per row how many
  // filters it fails (up to 2) and which.
  const fails = new Uint8Array(n);
  const failed = new Int8Array(n);
  predicates.forEach(({ test }, k) => {
    for (let i = 0; i < n; i++) {
      if (fails[i]! < 2 && !test(i)) {
        fails[i]!++;
        failed[i] = k;
      }
    }
  });
  let matching = 0;
  for (let i = 0; i < n; i++) {
    const f1 = fails[i]!;
    if (f1 > 1) continue;
    // A row failing one filter counts for that filter's facet only; a row failing none, everywhere.
    const only = f1 === 1 ? target[failed[i]!]! : -2;
    if (only === -1) continue;
    if (only === -2) matching++;
    for (let f = 0; f < F; f++) {
      if (only !== -2 && only !== f) continue;
      const code = codes[f]![i]!;
      if (code >= 0) counts[f]![code]!++;
    }
    for (let c = 0; c < N; c++) {
      if (only !== -2 && only !== F + c) continue;
      const v = numbers[c]![i]!;
      if (v < mins[c]!) mins[c] = v;
      if (v > maxs[c]!) maxs[c] = v;
    }
    if (only === -2 || only === F + N) {
      const v = created[i]!;
      if (v === v) {
        if (createdMin < 0 || v < created[createdMin]!) createdMin = i;
        if (createdMax < 0 || v > created[createdMax]!) createdMax = i;
      }
    }
  }
  const lists = {} as Record<ListFacet, Map<string, number>>;
  LIST_FACETS.forEach((facet, f) => {
    const map = new Map<string, number>();
    const { values } = columns.lists[facet];
    const c = counts[f]!;
    for (let code = 0; code < values.length; code++) if (c[code]! > 0) map.set(values[code]!, c[code]!);
    lists[facet] = map;
  });
  const bounds = (c: number): Bounds<number> => (mins[c] === Infinity ? { min: null, max: null } : { min: mins[c]!, max: maxs[c]! });
  const ranges = {} as Facets['ranges'];
  NUMBER_COLUMNS.forEach((column, c) => (ranges[column] = bounds(c)));
  ranges.created = createdMin < 0 ? { min: null, max: null } : { min: items[createdMin]!.createdAt, max: items[createdMax]!.createdAt };
  return { matching, lists, ranges };
}

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

/**
 * Stable counting sort by rank (0 … R-1; R is "no value", always last): O(n), and ties keep the
 * order given (delivery order) whatever the direction.
 */
function orderByRank(ranks: Int32Array, R: number, desc: boolean): Int32Array {
  const m = ranks.length;
  const starts = new Int32Array(R + 2);
  for (let k = 0; k < m; k++) {
    const r = ranks[k]!;
    starts[(r === R ? R : desc ? R - 1 - r : r) + 1]!++;
  }
  for (let r = 1; r <= R + 1; r++) starts[r]! += starts[r - 1]!;
  const order = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const r = ranks[k]!;
    order[starts[r === R ? R : desc ? R - 1 - r : r]!++] = k;
  }
  return order;
}

/** Ranks of a list column's codes, its values sorted as text. */
function codeRanks(values: readonly string[]): Int32Array {
  const sorted = values.map((v, code) => ({ v, code })).sort((a, b) => compareText(a.v, b.v));
  const ranks = new Int32Array(values.length);
  sorted.forEach(({ code }, rank) => (ranks[code] = rank));
  return ranks;
}

const STATE_RANKS = new Map(TRIAGE_STATES.map((s, i) => [s, i]));

/**
 * Ranks of numbers (NaN: none). Few distinct values (scores, prices): ranked through a map of the
 * distinct values sorted natively. Mostly distinct ones (IDs): positions sorted by key instead,
 * which is cheaper than a map of 100,000 numbers.
 */
function numberRanks(keys: Float64Array): { ranks: Int32Array; R: number } {
  const m = keys.length;
  const distinct = new Set<number>();
  for (let k = 0; k < m && distinct.size <= m / 8 + 64; k++) if (!Number.isNaN(keys[k]!)) distinct.add(keys[k]!);
  const ranks = new Int32Array(m);
  if (distinct.size > m / 8 + 64) {
    const present: number[] = [];
    for (let k = 0; k < m; k++) if (!Number.isNaN(keys[k]!)) present.push(k);
    present.sort((a, b) => keys[a]! - keys[b]! || a - b);
    let rank = -1;
    for (let j = 0; j < present.length; j++) {
      if (j === 0 || keys[present[j]!] !== keys[present[j - 1]!]) rank++;
      ranks[present[j]!] = rank;
    }
    const R = rank + 1;
    for (let k = 0; k < m; k++) if (Number.isNaN(keys[k]!)) ranks[k] = R;
    return { ranks, R };
  }
  const sorted = Float64Array.from(distinct).sort();
  const rankOf = new Map<number, number>();
  for (let r = 0; r < sorted.length; r++) rankOf.set(sorted[r]!, r);
  for (let k = 0; k < m; k++) ranks[k] = Number.isNaN(keys[k]!) ? sorted.length : rankOf.get(keys[k]!)!;
  return { ranks, R: sorted.length };
}

/** Ranks of text keys (null: none), by their distinct values sorted as text. */
function textRanks(keys: readonly (string | null)[]): { ranks: Int32Array; R: number } {
  const distinct = [...new Set(keys.filter((k): k is string => k !== null))].sort(compareText);
  const rankOf = new Map(distinct.map((v, r) => [v, r]));
  const ranks = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) ranks[k] = keys[k] === null ? distinct.length : rankOf.get(keys[k]!)!;
  return { ranks, R: distinct.length };
}

/**
 * The rows sorted by one field, stable (ties keep delivery order, whatever the direction); items
 * without the field come last either way. Each row gets the rank of its value among the distinct
 * values (read from the columns: a few distinct grades, tasks or scores, not 100,000 strings to
 * compare), then one counting sort places them.
 */
export function sortRows(rows: readonly TriageRow[], field: SortField = 'received', dir: 'asc' | 'desc' = 'asc'): TriageRow[] {
  const subset = subsets.get(rows);
  const columns = subset?.columns ?? columnsOf(rows);
  const m = rows.length;
  const at = subset ? subset.indices : null;
  const pos = (k: number) => (at ? at[k]! : k);
  let ranks: Int32Array;
  let R: number;
  const fromList = (facet: ListFacet) => {
    const { codes, values } = columns.lists[facet];
    const byCode = facet === 'state' ? Int32Array.from(values, (v) => STATE_RANKS.get(v as TriageState) ?? 0) : codeRanks(values);
    R = facet === 'state' ? TRIAGE_STATES.length : values.length;
    ranks = new Int32Array(m);
    for (let k = 0; k < m; k++) {
      const code = codes[pos(k)]!;
      ranks[k] = code < 0 ? R : byCode[code]!;
    }
  };
  const fromNumbers = (values: Float64Array) => {
    const keys = new Float64Array(m);
    for (let k = 0; k < m; k++) keys[k] = values[pos(k)]!;
    ({ ranks, R } = numberRanks(keys));
  };
  switch (field) {
    case 'state':
    case 'grade':
    case 'source':
      fromList(field);
      break;
    case 'task': {
      // Live items have a task, simulated ones a vertical: one column of either.
      const keys = new Array<string | null>(m);
      for (let k = 0; k < m; k++) {
        const item = columns.items[pos(k)]!;
        keys[k] = item.taskId ?? item.verticalId;
      }
      ({ ranks, R } = textRanks(keys));
      break;
    }
    case 'received': {
      // Rows come in delivery order: then there is nothing to sort.
      const received = columns.numbers.received;
      let sorted = true;
      for (let k = 1; k < m && sorted; k++) if (received[pos(k)]! < received[pos(k - 1)]!) sorted = false;
      if (sorted) {
        const out = rows.slice();
        return dir === 'desc' ? stableReverse(out, received, pos) : out;
      }
      fromNumbers(received);
      break;
    }
    case 'quality':
    case 'price':
    case 'validators':
    case 'consensus':
      fromNumbers(columns.numbers[field]);
      break;
    case 'id': {
      let digits = true;
      for (let k = 0; k < m && digits; k++) {
        const id = columns.items[pos(k)]!.itemId;
        if (id.length > 15 || !isDigits(id)) digits = false;
      }
      if (digits) {
        const keys = new Float64Array(m);
        for (let k = 0; k < m; k++) keys[k] = Number(columns.items[pos(k)]!.itemId);
        ({ ranks, R } = numberRanks(keys));
      } else ({ ranks, R } = textRanks(Array.from({ length: m }, (_, k) => columns.items[pos(k)]!.itemId)));
      break;
    }
    case 'created':
      ({ ranks, R } = textRanks(Array.from({ length: m }, (_, k) => columns.items[pos(k)]!.createdAt)));
      break;
  }
  const order = orderByRank(ranks!, R!, dir === 'desc');
  const out = new Array<TriageRow>(m);
  for (let k = 0; k < m; k++) out[k] = rows[order[k]!]!;
  return out;
}

/** Rows in delivery order, newest first; rows received in the same millisecond keep their order. */
function stableReverse(rows: TriageRow[], received: Float64Array, pos: (k: number) => number): TriageRow[] {
  const out: TriageRow[] = [];
  let end = rows.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && received[pos(start - 1)] === received[pos(end - 1)]) start--;
    for (let k = start; k < end; k++) out.push(rows[k]!);
    end = start;
  }
  return out;
}
