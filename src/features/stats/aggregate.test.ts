import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicros, OVER_RANGE } from '../../lib/money';
import { outboxEntry } from '../../test/outbox-entry';
import type { StoredItem } from '../../domain/store';
import { toTriageRows, type TriageRow, type TriageState } from '../../domain/triage';
import { DEFAULT_REASONS } from '../dispute-reasons';
import { acceptanceRows, binLabel, binOf, disputeReasonRows, formatRate, formatShare, mergeStats, projectSpend, receivedPerDay, statsOf } from './aggregate';

const DAY = 24 * 60 * 60 * 1000;
const NOV_1 = Date.UTC(2026, 10, 1);

const stored = (n: number, over: Partial<StoredItem> = {}): StoredItem => ({
  scope: 'S',
  subscriptionId: 'sub',
  itemId: `i${n}`,
  kind: 'live',
  seq: n,
  receivedAt: NOV_1,
  via: 'incremental',
  open: 1,
  serverDecision: null,
  taskId: 't1',
  campaignId: null,
  frontierId: null,
  verticalId: null,
  topicId: null,
  qualityScore: 0.5,
  qualityGrade: 'A',
  qualityMethod: null,
  source: 'web',
  priceMicros: null,
  validatorCount: null,
  consensusRatio: null,
  createdAt: null,
  ...over,
});
const row = (state: TriageState, over: Partial<StoredItem> = {}, n = Math.random()): TriageRow => ({ item: stored(n, over), state, decidedAt: null });

describe('statsOf', () => {
  it('counts acceptance by task, campaign, source and grade: adopted / (adopted + disputed), with every item counted', () => {
    const rows = [
      row('adopted', { taskId: 't1', source: 'web', qualityGrade: 'A' }),
      row('adopted', { taskId: 't1', source: 'app', qualityGrade: 'A' }),
      row('disputed', { taskId: 't1', source: 'web', qualityGrade: 'B' }),
      row('undecided', { taskId: 't2', source: null, qualityGrade: 'B' }),
      row('waiting', { taskId: 't2', source: 'web', qualityGrade: null }),
    ];
    const stats = statsOf(rows);
    expect(acceptanceRows(stats.acceptance.task)).toEqual([
      { key: 't1', items: 3, adopted: 2, disputed: 1 },
      { key: 't2', items: 2, adopted: 0, disputed: 0 },
    ]);
    expect(acceptanceRows(stats.acceptance.source)).toEqual([
      { key: 'web', items: 3, adopted: 1, disputed: 1 },
      { key: '(none)', items: 1, adopted: 0, disputed: 0 },
      { key: 'app', items: 1, adopted: 1, disputed: 0 },
    ]);
    expect(stats.acceptance.grade.get('B')).toEqual({ key: 'B', items: 2, adopted: 0, disputed: 1 });
    expect(stats.acceptance.campaign.get('(none)')).toEqual({ key: '(none)', items: 5, adopted: 2, disputed: 1 });
    expect(stats.states).toEqual({ undecided: 1, adopted: 2, disputed: 1, waiting: 1, failed: 0, discarded: 0 });
    expect(stats.items).toBe(5);
  });

  it('takes the state from the store and the outbox together (the service’s decision, then the latest entry)', () => {
    const items = [stored(1), stored(2, { serverDecision: 'dispute', open: 0 }), stored(3), stored(4)];
    const entries = [
      outboxEntry({ itemId: 'i1', subscriptionId: 'sub', decision: 'dispute', createdAt: 1 }),
      outboxEntry({ id: 'e1b', itemId: 'i1', subscriptionId: 'sub', decision: 'adopt', createdAt: 2 }),
      outboxEntry({ itemId: 'i3', subscriptionId: 'sub', decision: 'adopt', state: 'grace' }),
    ];
    const stats = statsOf(toTriageRows(items, entries));
    expect(stats.states).toMatchObject({ adopted: 1, disputed: 1, waiting: 1, undecided: 1 });
    expect(stats.acceptance.task.get('t1')).toEqual({ key: 't1', items: 4, adopted: 1, disputed: 1 });
  });

  it('bins quality scores by tenths (0.1 opens the second bin, 1 closes the last), split by decision; no score and off-scale apart', () => {
    expect([0, 0.0999, 0.1, 0.25, 0.3, 0.7, 0.9, 0.99, 1].map(binOf)).toEqual([0, 0, 1, 2, 3, 7, 9, 9, 9]);
    expect([-0.01, 1.01, Number.NaN].map(binOf)).toEqual([-1, -1, -1]);
    const stats = statsOf([
      row('adopted', { qualityScore: 0.95 }),
      row('adopted', { qualityScore: 1 }),
      row('disputed', { qualityScore: 0.1 }),
      row('failed', { qualityScore: 0.15 }),
      row('undecided', { qualityScore: 0 }),
      row('undecided', { qualityScore: null }),
      row('discarded', { qualityScore: 7 }),
    ]);
    expect(stats.histogram[9]).toEqual({ undecided: 0, adopted: 2, disputed: 0, other: 0 });
    expect(stats.histogram[1]).toEqual({ undecided: 0, adopted: 0, disputed: 1, other: 1 });
    expect(stats.histogram[0]).toEqual({ undecided: 1, adopted: 0, disputed: 0, other: 0 });
    expect(stats.histogram.slice(2, 9).every((b) => b.undecided + b.adopted + b.disputed + b.other === 0)).toBe(true);
    expect(stats.unscored).toEqual({ undecided: 1, adopted: 0, disputed: 0, other: 0 });
    expect(stats.outOfScale).toEqual({ undecided: 0, adopted: 0, disputed: 0, other: 1 });
    expect([0, 9].map(binLabel)).toEqual(['0.0–0.1', '0.9–1.0']);
  });

  it('counts items received per UTC day, empty days between included', () => {
    const stats = statsOf([
      row('undecided', { receivedAt: NOV_1 + 1 }),
      row('undecided', { receivedAt: NOV_1 + DAY - 1 }),
      row('undecided', { receivedAt: NOV_1 + 3 * DAY }),
    ]);
    expect(receivedPerDay(stats.receivedByDay)).toEqual([
      { day: '2026-11-01', items: 2 },
      { day: '2026-11-02', items: 0 },
      { day: '2026-11-03', items: 0 },
      { day: '2026-11-04', items: 1 },
    ]);
    expect(receivedPerDay(new Map())).toEqual([]);
  });

  it('sums the spend of adopted simulated items exactly, and says when it leaves the exact range', () => {
    const sim = (state: TriageState, priceMicros: number | null) => row(state, { kind: 'simulated', priceMicros });
    const stats = statsOf([
      sim('adopted', 100_001),
      sim('adopted', 12_500),
      sim('adopted', null),
      sim('disputed', 999_999),
      sim('waiting', 5),
      sim('undecided', 7),
    ]);
    expect(stats.spend).toEqual({
      items: 6,
      spentMicros: 112_501,
      adoptedSimulated: 3,
      disputedSimulated: 1,
      adoptedUnpriced: 1,
      undecided: 1,
      undecidedPriced: 1,
      undecidedMicros: 7,
    });
    expect(formatMicros(stats.spend.spentMicros)).toBe('$0.112501');
    const huge = statsOf([sim('adopted', Number.MAX_SAFE_INTEGER), sim('adopted', 1)]);
    expect(huge.spend.spentMicros).toBe(OVER_RANGE);
    expect(formatMicros(huge.spend.spentMicros)).toBe('over $9,007,199,254');
    // Live items never count as spend.
    expect(statsOf([row('adopted', { priceMicros: 5 })]).spend.spentMicros).toBe(0);
  });

  it('reads 100,000 rows in one pass, with the same reads per row as for 1,000', () => {
    const states: TriageState[] = ['undecided', 'adopted', 'disputed', 'waiting'];
    // Counted, not timed: every row is pulled once, and each row's fields are read a fixed number of times.
    const counted = (count: number) => {
      const tally = { pulled: 0, reads: 0 };
      function* rows(): Generator<TriageRow> {
        for (let i = 0; i < count; i++) {
          tally.pulled++;
          const { item, ...rest } = row(
            states[i % 4]!,
            {
              kind: i % 2 ? 'simulated' : 'live',
              priceMicros: 1_000 + i,
              taskId: `t${i % 50}`,
              qualityScore: (i % 101) / 100,
              receivedAt: NOV_1 + (i % 30) * DAY,
            },
            i,
          );
          const watched = new Proxy(item, {
            get: (target, key, receiver) => {
              tally.reads++;
              return Reflect.get(target, key, receiver) as unknown;
            },
          });
          yield { ...rest, item: watched };
        }
      }
      return { stats: statsOf(rows()), tally };
    };
    const small = counted(1_000);
    const { stats, tally } = counted(100_000);
    expect(stats.items).toBe(100_000);
    expect(stats.states.adopted).toBe(25_000);
    expect(stats.acceptance.task.size).toBe(50);
    expect(receivedPerDay(stats.receivedByDay)).toHaveLength(30);
    expect(tally.pulled).toBe(100_000);
    expect(small.tally.reads).toBeGreaterThan(0);
    expect(tally.reads).toBe(100 * small.tally.reads);
  });
});

describe('disputes by reason', () => {
  it('counts disputed items by the code their reason starts with, "other" and "no reason"; only disputed ones', () => {
    const codes = DEFAULT_REASONS.map((r) => r.code);
    const withReason = (state: TriageState, reason: string | undefined): TriageRow => ({
      ...row(state),
      ...(reason === undefined ? {} : { entry: outboxEntry({ decision: 'dispute', reason }) }),
    });
    const stats = statsOf(
      [
        withReason('disputed', 'missing_object: tail not boxed'),
        withReason('disputed', 'missing_object'),
        withReason('disputed', 'duplicate'),
        withReason('disputed', 'blurry photo'),
        withReason('disputed', 'missing_objects: not the code'),
        withReason('disputed', ''),
        // The service's own decision: no entry here.
        withReason('disputed', undefined),
        // Not disputed (yet): not counted.
        withReason('waiting', 'missing_object'),
        withReason('adopted', undefined),
      ],
      codes,
    );
    expect(Object.fromEntries(stats.disputeReasons)).toEqual({ missing_object: 2, duplicate: 1, other: 2, no_reason: 2 });

    const rows = disputeReasonRows(stats.disputeReasons, DEFAULT_REASONS);
    // Every code in the organization's order (0 when none), then other and no reason.
    expect(rows.map((r) => [r.code, r.disputes])).toEqual([
      ...DEFAULT_REASONS.map((r) => [r.code, r.code === 'missing_object' ? 2 : r.code === 'duplicate' ? 1 : 0]),
      ['other', 2],
      ['no_reason', 2],
    ]);
    expect(rows[1]!.label).toBe('Missing object');
    // A code removed from the list since is still counted… under "other" when parsed with the new list.
    expect(Object.fromEntries(statsOf([withReason('disputed', 'duplicate')], ['wrong_label']).disputeReasons)).toEqual({ other: 1 });
    // Counts from elsewhere whose code is not listed keep their own row.
    expect(disputeReasonRows(new Map([['legacy', 3]]), []).map((r) => [r.code, r.disputes])).toEqual([['legacy', 3]]);
    expect(formatShare(2, 7)).toBe('28.6%');
    expect(formatShare(0, 7)).toBe('0%');
    expect(formatShare(7, 7)).toBe('100%');
    expect(formatShare(0, 0)).toBe('—');
  });
});

describe('mergeStats', () => {
  it('equals the statistics of all rows together', () => {
    const arbRow = fc.record({
      state: fc.constantFrom<TriageState>('undecided', 'adopted', 'disputed', 'waiting', 'failed', 'discarded'),
      kind: fc.constantFrom<'live' | 'simulated'>('live', 'simulated'),
      price: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
      score: fc.option(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
      task: fc.option(fc.constantFrom('t1', 't2', 't3')),
      day: fc.integer({ min: 0, max: 40 }),
      reason: fc.option(fc.constantFrom('wrong_label', 'duplicate: twice', 'blurry', '')),
    });
    fc.assert(
      fc.property(fc.array(fc.array(arbRow, { maxLength: 30 }), { maxLength: 4 }), (parts) => {
        const rowsOf = (part: (typeof parts)[number]) =>
          part.map((r, i) => ({
            ...row(r.state, { kind: r.kind, priceMicros: r.price, qualityScore: r.score, taskId: r.task, receivedAt: NOV_1 + r.day * DAY }, i),
            ...(r.reason === null ? {} : { entry: outboxEntry({ decision: 'dispute', reason: r.reason }) }),
          }));
        const codes = ['wrong_label', 'duplicate'];
        const merged = mergeStats(parts.map((p) => statsOf(rowsOf(p), codes)));
        const whole = statsOf(parts.flatMap(rowsOf), codes);
        expect(merged).toEqual(whole);
      }),
    );
  });
});

describe('projectSpend', () => {
  it('projects the undecided items’ prices at the acceptance rate, exactly: total × adopted / decided, rounded half up', () => {
    // 3 undecided at $0.40 total $1.20; 5 of 8 accepted (62.5%) → $0.75.
    const spend = statsOf([
      ...Array.from({ length: 5 }, (_, i) => row('adopted', { kind: 'simulated', priceMicros: 1 }, i)),
      ...Array.from({ length: 3 }, (_, i) => row('disputed', { kind: 'simulated', priceMicros: 1 }, 10 + i)),
      ...Array.from({ length: 3 }, (_, i) => row('undecided', { kind: 'simulated', priceMicros: 400_000 }, 20 + i)),
      row('undecided', { kind: 'simulated', priceMicros: null }),
    ]).spend;
    expect(projectSpend(spend)).toEqual({ projectedMicros: 750_000, undecided: 3, adopted: 5, disputed: 3, averageMicros: 400_000 });
    // 1 of 3 accepted on $0.000002: 0.666… rounds to 1 micro-USD; 1 of 4 on 2 micro-USD is 0.5, rounded up.
    expect(projectSpend({ ...spend, adoptedSimulated: 1, disputedSimulated: 2, undecidedMicros: 2, undecidedPriced: 2 })?.projectedMicros).toBe(1);
    expect(projectSpend({ ...spend, adoptedSimulated: 1, disputedSimulated: 3, undecidedMicros: 2, undecidedPriced: 2 })?.projectedMicros).toBe(1);
    expect(projectSpend({ ...spend, adoptedSimulated: 1, disputedSimulated: 3, undecidedMicros: 1, undecidedPriced: 1 })?.projectedMicros).toBe(0);
    // Beyond a float's precision: 2^53 - 1 undecided micro-USD at 2 of 3 is exact.
    expect(
      projectSpend({ ...spend, adoptedSimulated: 2, disputedSimulated: 1, undecidedMicros: Number.MAX_SAFE_INTEGER, undecidedPriced: 1 })?.projectedMicros,
    ).toBe(6_004_799_503_160_661);
  });

  it('projects nothing before a simulated item is decided, or without a priced undecided item', () => {
    const undecided = statsOf([row('undecided', { kind: 'simulated', priceMicros: 10 })]).spend;
    expect(projectSpend(undecided)).toBeNull();
    const decided = statsOf([row('adopted', { kind: 'simulated', priceMicros: 10 })]).spend;
    expect(projectSpend(decided)).toBeNull();
  });
});

describe('formatRate', () => {
  it('shows at most one decimal and never rounds to 0% or 100% unless it is', () => {
    expect(formatRate(5, 3)).toBe('62.5%');
    expect(formatRate(2, 1)).toBe('66.7%');
    expect(formatRate(1, 1)).toBe('50%');
    expect(formatRate(9_999, 1)).toBe('99.9%');
    expect(formatRate(1, 9_999)).toBe('0.1%');
    expect(formatRate(3, 0)).toBe('100%');
    expect(formatRate(0, 3)).toBe('0%');
    expect(formatRate(0, 0)).toBe('—');
  });
});
