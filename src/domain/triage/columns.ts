import { WeakMemo } from '../../lib/memo';
import type { StoredItem } from '../store';
import { LIST_FACETS, type ListFacet } from './search';
import type { TriageRow } from './triage-state';

/**
 * The rows as columns: each list facet's values as small integer codes into a dictionary, each
 * number as a Float64Array (NaN for "none"). Filters, counts and sorts then read typed arrays
 * instead of objects and count into arrays instead of maps: at 100,000 rows the facet counts took
 * ~200 ms over the objects, a few ms over the columns.
 *
 * Built once per rows array. A decision makes a new rows array (the same items, one state
 * changed): the item columns of the previous build are taken over when every row holds the same
 * item, and only the states are coded again.
 */
interface ListColumn {
  /** Per row, the index of its value in `values`, or -1 when it has none. */
  codes: Int32Array;
  values: string[];
  lookup: Map<string, number>;
}

export const NUMBER_COLUMNS = ['quality', 'price', 'validators', 'consensus', 'received'] as const;
type NumberColumn = (typeof NUMBER_COLUMNS)[number];

export interface Columns {
  n: number;
  items: StoredItem[];
  lists: Record<ListFacet, ListColumn>;
  numbers: Record<NumberColumn, Float64Array>;
  /** created_at as ms (NaN when absent or unreadable): its bounds are tracked as numbers, not by comparing text. */
  created: Float64Array;
}

const ITEM_FIELDS: Record<Exclude<ListFacet, 'state'>, keyof StoredItem> = {
  grade: 'qualityGrade',
  source: 'source',
  task: 'taskId',
  campaign: 'campaignId',
  vertical: 'verticalId',
  topic: 'topicId',
};
const NUMBER_FIELDS: Record<NumberColumn, keyof StoredItem> = {
  quality: 'qualityScore',
  price: 'priceMicros',
  validators: 'validatorCount',
  consensus: 'consensusRatio',
  received: 'receivedAt',
};

function listColumn(n: number, valueAt: (i: number) => string | null): ListColumn {
  const codes = new Int32Array(n);
  const values: string[] = [];
  const lookup = new Map<string, number>();
  let last: string | null = null;
  let lastCode = -1;
  for (let i = 0; i < n; i++) {
    const value = valueAt(i);
    if (value === null || value === undefined) {
      codes[i] = -1;
      continue;
    }
    // Runs of the same value are common (a page of one task): skip the map for them.
    if (value !== last) {
      let code = lookup.get(value);
      if (code === undefined) {
        code = values.length;
        values.push(value);
        lookup.set(value, code);
      }
      last = value;
      lastCode = code;
    }
    codes[i] = lastCode;
  }
  return { codes, values, lookup };
}

// By rows: a list of rows is never changed in place (a new list is a new array). The columns built
// last are the start of the next build: a new list of the same items (a decision changed a state)
// rebuilds only the state column.
const built = new WeakMemo<readonly TriageRow[], Columns>();

export const columnsOf = (rows: readonly TriageRow[]): Columns => built.of(rows, buildColumns);

function buildColumns(rows: readonly TriageRow[], previous: Columns | undefined): Columns {
  const n = rows.length;
  const items = new Array<StoredItem>(n);
  for (let i = 0; i < n; i++) items[i] = rows[i]!.item;
  let same = previous !== undefined && previous.n === n;
  for (let i = 0; same && i < n; i++) if (previous!.items[i] !== items[i]) same = false;
  const state = listColumn(n, (i) => rows[i]!.state);
  let columns: Columns;
  if (same) columns = { ...previous!, items, lists: { ...previous!.lists, state } };
  else {
    const lists = { state } as Record<ListFacet, ListColumn>;
    for (const facet of LIST_FACETS) {
      if (facet === 'state') continue;
      const field = ITEM_FIELDS[facet];
      lists[facet] = listColumn(n, (i) => items[i]![field] as string | null);
    }
    const numbers = {} as Record<NumberColumn, Float64Array>;
    for (const column of NUMBER_COLUMNS) {
      const field = NUMBER_FIELDS[column];
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const value = items[i]![field] as number | null;
        values[i] = value === null ? Number.NaN : value;
      }
      numbers[column] = values;
    }
    const created = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const text = items[i]!.createdAt;
      created[i] = text === null ? Number.NaN : Date.parse(text);
    }
    columns = { n, items, lists, numbers, created };
  }
  return columns;
}

/** A subset of rows made by filterRows: its rows' positions in the full rows' columns (so sortRows reads those). */
export const subsets = new WeakMemo<readonly TriageRow[], { columns: Columns; indices: Int32Array }>();
