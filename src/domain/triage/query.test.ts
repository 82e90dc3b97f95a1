import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../store';
import { describeFilters } from './describe';
import { facetCounts, filterRows, sortRows } from './query';
import { triageSearchSchema, type TriageFilters } from './search';
import type { TriageRow, TriageState } from './triage-state';

function item(id: string, over: Partial<StoredItem> = {}): StoredItem {
  return {
    scope: 'S',
    subscriptionId: 'sub',
    itemId: id,
    kind: 'live',
    seq: Number(id),
    receivedAt: new Date(2026, 10, 1, 12).getTime() + Number(id),
    via: 'incremental',
    open: 1,
    serverDecision: null,
    taskId: '1002',
    campaignId: null,
    frontierId: null,
    verticalId: null,
    topicId: null,
    qualityScore: 0.5,
    qualityGrade: 'B',
    qualityMethod: null,
    source: 'web',
    priceMicros: null,
    validatorCount: null,
    consensusRatio: null,
    createdAt: '2026-11-01T10:00:00',
    ...over,
  };
}
const row = (i: StoredItem, state: TriageState = 'undecided'): TriageRow => ({ item: i, state, decidedAt: null });
const ids = (rows: readonly TriageRow[]) => rows.map((r) => r.item.itemId);

const rows: TriageRow[] = [
  row(item('1', { qualityScore: 0.9, qualityGrade: 'A' }), 'adopted'),
  row(item('2', { qualityScore: 0.4, qualityGrade: 'C', source: 'app' })),
  row(item('3', { qualityScore: 0.55, qualityGrade: 'B', campaignId: 'c1' })),
  row(item('4', { qualityScore: 0.7, qualityGrade: 'A', taskId: '999' }), 'disputed'),
  row(
    item('5', {
      kind: 'simulated',
      taskId: null,
      qualityGrade: null,
      source: null,
      verticalId: 'v1',
      topicId: 't1',
      qualityScore: 0.3,
      priceMicros: 12_500,
      validatorCount: 3,
      consensusRatio: 0.67,
      createdAt: '2026-10-20T08:00:00Z',
    }),
  ),
  row(
    item('6', {
      kind: 'simulated',
      taskId: null,
      qualityGrade: null,
      source: null,
      verticalId: 'v1',
      qualityScore: 0.8,
      priceMicros: 1_000_000,
      validatorCount: 5,
      consensusRatio: 1,
    }),
    'waiting',
  ),
];

describe('the URL schema', () => {
  it('keeps good values and drops bad ones without failing', () => {
    const parsed = triageSearchSchema.parse({
      state: 'undecided,adopted',
      quality_min: 0.6,
      grade: 'A',
      task: 1002,
      created_from: '2026-11-01',
      sort: 'quality',
      dir: 'desc',
    });
    expect(parsed).toEqual({
      state: 'undecided,adopted',
      quality_min: 0.6,
      grade: 'A',
      task: '1002',
      created_from: '2026-11-01',
      sort: 'quality',
      dir: 'desc',
    });
    const bad = triageSearchSchema.parse({
      quality_min: 'abc',
      created_from: 'yesterday',
      sort: 'nope',
      dir: 'up',
      price_max: Number.POSITIVE_INFINITY,
      q: 12,
    });
    expect(bad).toEqual({ quality_min: undefined, created_from: undefined, sort: undefined, dir: undefined, price_max: undefined, q: '12' });
  });
});

describe('filterRows', () => {
  it('applies lists, ranges and states together', () => {
    expect(ids(filterRows(rows, {}))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ids(filterRows(rows, { state: 'undecided' }))).toEqual(['2', '3', '5']);
    expect(ids(filterRows(rows, { quality_min: 0.5, quality_max: 0.8 }))).toEqual(['3', '4', '6']);
    expect(ids(filterRows(rows, { grade: 'A,C' }))).toEqual(['1', '2', '4']);
    expect(ids(filterRows(rows, { grade: 'A', quality_max: 0.8 }))).toEqual(['4']);
    expect(ids(filterRows(rows, { campaign: 'c1' }))).toEqual(['3']);
    expect(ids(filterRows(rows, { vertical: 'v1', topic: 't1' }))).toEqual(['5']);
    expect(ids(filterRows(rows, { source: 'app' }))).toEqual(['2']);
    expect(ids(filterRows(rows, { task: '999' }))).toEqual(['4']);
  });

  it('compares prices in integer micro-USD from the USD typed', () => {
    expect(ids(filterRows(rows, { price_min: 0.0125, price_max: 0.0125 }))).toEqual(['5']);
    expect(ids(filterRows(rows, { price_min: 0.0126 }))).toEqual(['6']);
    expect(ids(filterRows(rows, { price_max: 1 }))).toEqual(['5', '6']);
  });

  it('filters validator count, consensus, created days and received days', () => {
    expect(ids(filterRows(rows, { validators_min: 4 }))).toEqual(['6']);
    expect(ids(filterRows(rows, { consensus_max: 0.7 }))).toEqual(['5']);
    expect(ids(filterRows(rows, { created_to: '2026-10-20' }))).toEqual(['5']);
    expect(ids(filterRows(rows, { created_from: '2026-10-21' }))).toEqual(['1', '2', '3', '4', '6']);
    expect(ids(filterRows(rows, { received_from: '2026-11-01', received_to: '2026-11-01' }))).toHaveLength(6);
    expect(ids(filterRows(rows, { received_from: '2026-11-02' }))).toEqual([]);
    expect(ids(filterRows(rows, { received_to: '2026-10-31' }))).toEqual([]);
  });

  it('searches the content index (and IDs) once it is built, not before', () => {
    const index = new Map([
      ['2', 'a red bicycle\n'],
      ['5', 'the red car\n'],
    ]);
    expect(ids(filterRows(rows, { q: 'Red' }, index))).toEqual(['2', '5']);
    expect(ids(filterRows(rows, { q: 'red', state: 'undecided', source: 'app' }, index))).toEqual(['2']);
    expect(ids(filterRows(rows, { q: '4' }, index))).toEqual(['4']);
    expect(filterRows(rows, { q: 'red' })).toHaveLength(6);
  });
});

describe('facetCounts', () => {
  it('counts each facet with every other filter applied', () => {
    const facets = facetCounts(rows, { grade: 'A', state: 'adopted' });
    expect(facets.matching).toBe(1);
    // Grade counts ignore the grade filter but apply the state one: only item 1 is adopted.
    expect(Object.fromEntries(facets.lists.grade)).toEqual({ A: 1 });
    // State counts ignore the state filter but apply grade A: items 1 (adopted) and 4 (disputed).
    expect(Object.fromEntries(facets.lists.state)).toEqual({ adopted: 1, disputed: 1 });
    expect(Object.fromEntries(facets.lists.source)).toEqual({ web: 1 });
  });

  it('gives every value without filters, and range bounds over the other filters', () => {
    const facets = facetCounts(rows, { quality_min: 0.5 });
    expect(facets.matching).toBe(4);
    expect(Object.fromEntries(facets.lists.state)).toEqual({ adopted: 1, undecided: 1, disputed: 1, waiting: 1 });
    // The quality bounds ignore the quality filter.
    expect(facets.ranges.quality).toEqual({ min: 0.3, max: 0.9 });
    // Price bounds apply it: item 5 (0.3) is out.
    expect(facets.ranges.price).toEqual({ min: 1_000_000, max: 1_000_000 });
    expect(facets.ranges.created).toEqual({ min: '2026-11-01T10:00:00', max: '2026-11-01T10:00:00' });
  });

  it('agrees with filtering: each value count equals the rows matching the other filters plus that value', () => {
    const grades = fc.subarray(['A', 'B', 'C']);
    const states = fc.subarray(['undecided', 'adopted', 'disputed', 'waiting']);
    fc.assert(
      fc.property(grades, states, fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), (g, s, qmin) => {
        const filters: TriageFilters = { grade: g.join(',') || undefined, state: s.join(',') || undefined, quality_min: qmin };
        const facets = facetCounts(rows, filters);
        expect(facets.matching).toBe(filterRows(rows, filters).length);
        for (const value of ['A', 'B', 'C']) expect(facets.lists.grade.get(value) ?? 0).toBe(filterRows(rows, { ...filters, grade: value }).length);
        for (const value of ['undecided', 'adopted', 'disputed', 'waiting'])
          expect(facets.lists.state.get(value) ?? 0).toBe(filterRows(rows, { ...filters, state: value }).length);
      }),
    );
  });
});

describe('sortRows', () => {
  it('sorts by a field either way, nulls last, ties in delivery order', () => {
    expect(ids(sortRows(rows, 'quality', 'asc'))).toEqual(['5', '2', '3', '4', '6', '1']);
    expect(ids(sortRows(rows, 'quality', 'desc'))).toEqual(['1', '6', '4', '3', '2', '5']);
    expect(ids(sortRows(rows, 'grade', 'asc'))).toEqual(['1', '4', '3', '2', '5', '6']);
    expect(ids(sortRows(rows, 'grade', 'desc'))).toEqual(['2', '3', '1', '4', '5', '6']);
    expect(ids(sortRows(rows, 'price', 'desc'))).toEqual(['6', '5', '1', '2', '3', '4']);
    expect(ids(sortRows(rows, 'state', 'asc'))).toEqual(['2', '3', '5', '1', '4', '6']);
    expect(ids(sortRows(rows))).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('orders digit-only IDs as numbers', () => {
    const some = [row(item('1002')), row(item('999')), row(item('abc')), row(item('1001'))];
    expect(ids(sortRows(some, 'id', 'asc'))).toEqual(['999', '1001', '1002', 'abc']);
    expect(ids(sortRows(rows, 'task', 'asc'))).toEqual(['4', '1', '2', '3', '5', '6']);
  });
});

describe('sortRows against a plain comparator sort', () => {
  // Many distinct values take another path (positions sorted by key) than few (ranks by a map).
  const arbitraryRows = fc.array(
    fc.record({
      quality: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
      grade: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: null }),
      id: fc.integer({ min: 1, max: 1_000_000 }),
      state: fc.constantFrom<TriageState>('undecided', 'adopted', 'failed'),
    }),
    { minLength: 150, maxLength: 400 },
  );
  const reference = (list: TriageRow[], key: (r: TriageRow) => number | string | null, dir: 'asc' | 'desc') =>
    list
      .map((r, i) => ({ r, i }))
      .sort((a, b) => {
        const x = key(a.r);
        const y = key(b.r);
        if (x === y) return a.i - b.i;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (dir === 'desc' ? -1 : 1);
      })
      .map(({ r }) => r.item.itemId);

  it('gives the same order for every field and direction, on all rows and on a filtered subset', () => {
    fc.assert(
      fc.property(arbitraryRows, fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), (specs, dir) => {
        const list = specs.map((spec, i) =>
          row(item(String(i + 1), { qualityScore: spec.quality === null ? null : spec.quality / 400, qualityGrade: spec.grade, seq: i }), spec.state),
        );
        // IDs unique, digits only, unordered: sorted as numbers.
        list.forEach((r, i) => (r.item.itemId = String(specs[i]!.id * 1000 + i)));
        expect(ids(sortRows(list, 'quality', dir))).toEqual(reference(list, (r) => r.item.qualityScore, dir));
        expect(ids(sortRows(list, 'grade', dir))).toEqual(reference(list, (r) => r.item.qualityGrade, dir));
        expect(ids(sortRows(list, 'id', dir))).toEqual(reference(list, (r) => Number(r.item.itemId), dir));
        const order = ['undecided', 'adopted', 'disputed', 'waiting', 'failed', 'discarded'];
        expect(ids(sortRows(list, 'state', dir))).toEqual(reference(list, (r) => order.indexOf(r.state), dir));
        const subset = filterRows(list, { grade: 'A,B' });
        expect(ids(sortRows(subset, 'quality', dir))).toEqual(reference(subset, (r) => r.item.qualityScore, dir));
      }),
      { numRuns: 60 },
    );
  });
});

describe('describeFilters', () => {
  it('says the filters in a few words', () => {
    expect(describeFilters({ state: 'undecided', quality_max: 0.6 })).toBe('undecided, quality ≤ 0.6');
    expect(describeFilters({ grade: 'A,B', price_min: 0.01, price_max: 0.02, received_from: '2026-11-01', q: ' red ' })).toBe(
      'grade A or B, price $ 0.01–0.02, received from 2026-11-01, containing “red”',
    );
  });
});
