import { describe, expect, it } from 'vitest';
import { formatMicros } from '../../lib/money';
import type { StoredItem } from '../../domain/store';
import type { OutboxEntry } from '../../domain/outbox/model';
import type { TriageRow, TriageState } from '../../domain/triage';
import { bulkPreview, decisionsOf } from './preview';
import { latestRun, runProgress } from './progress';

const row = (n: number, state: TriageState = 'undecided', priceMicros: number | null = 12_500, kind: 'live' | 'simulated' = 'simulated'): TriageRow => ({
  item: { scope: 'S', subscriptionId: 'sub', itemId: `i${n}`, kind, seq: n, priceMicros } as StoredItem,
  state,
  decidedAt: null,
});

describe('bulk preview', () => {
  it('decides only undecided items and counts the others by why they are skipped', () => {
    const rows = [row(1), row(2, 'adopted'), row(3, 'disputed'), row(4, 'waiting'), row(5, 'waiting'), row(6, 'failed'), row(7, 'discarded'), row(8)];
    const p = bulkPreview(rows, 'adopt', 'simulated');
    expect(p.targets.map((r) => r.item.itemId)).toEqual(['i1', 'i8']);
    expect(p.skipped).toEqual({ adopted: 1, disputed: 1, waiting: 2, failed: 1, discarded: 1, leased: 0 });
    expect(p.skippedTotal).toBe(6);
  });

  it('on a team hub, skips the undecided items teammates hold and names who holds them (a decided one counts by its state)', () => {
    const rows = [row(1), row(2), row(3), row(4, 'adopted'), row(5)];
    const leased = new Map([
      ['i2', 'ana@team.test'],
      ['i3', 'bo@team.test'],
      ['i4', 'ana@team.test'],
      ['i5', 'ana@team.test'],
    ]);
    const p = bulkPreview(rows, 'dispute', 'simulated', leased);
    expect(p.targets.map((r) => r.item.itemId)).toEqual(['i1']);
    expect(p.skipped).toMatchObject({ adopted: 1, leased: 3 });
    expect(p.skippedTotal).toBe(4);
    expect(p.leasedTo).toEqual(['ana@team.test', 'bo@team.test']);
    expect(decisionsOf(p).map((d) => d.itemId)).toEqual(['i1']);
  });

  it('totals a simulated adopt exactly, names unpriced items, and charges nothing else', () => {
    const rows = [row(1, 'undecided', 12_500), row(2, 'undecided', 1), row(3, 'undecided', null), row(4, 'adopted', 999_999)];
    const adopt = bulkPreview(rows, 'adopt', 'simulated');
    expect(adopt).toMatchObject({ charged: true, totalMicros: 12_501, unpriced: 1 });
    expect(formatMicros(adopt.totalMicros)).toBe('$0.012501');
    expect(bulkPreview(rows, 'dispute', 'simulated')).toMatchObject({ charged: false, totalMicros: 0, unpriced: 0 });
    expect(
      bulkPreview(
        rows.map((r) => ({ ...r, item: { ...r.item, kind: 'live' as const } })),
        'adopt',
        'live',
      ),
    ).toMatchObject({ charged: false });
  });

  it('says "over" rather than show digits past the exact range (more than 2^53 micro-USD)', () => {
    const half = Math.floor(Number.MAX_SAFE_INTEGER / 2);
    const p = bulkPreview([row(1, 'undecided', half), row(2, 'undecided', half), row(3, 'undecided', 2)], 'adopt', 'simulated');
    expect(formatMicros(p.totalMicros)).toBe('over $9,007,199,254');
    // Just inside the range it is exact.
    const exact = bulkPreview([row(1, 'undecided', half), row(2, 'undecided', half), row(3, 'undecided', 1)], 'adopt', 'simulated');
    expect(exact.totalMicros).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('makes one outbox decision per target: prices on charged adopts, the reason on live disputes', () => {
    const sim = decisionsOf(bulkPreview([row(1), row(2, 'adopted')], 'adopt', 'simulated'), 'ignored');
    expect(sim).toEqual([{ kind: 'simulated', itemId: 'i1', subscriptionId: 'sub', decision: 'adopt', priceMicros: 12_500 }]);
    const live = decisionsOf(bulkPreview([row(1, 'undecided', null, 'live')], 'dispute', 'live'), '  blurry  ');
    expect(live).toEqual([{ kind: 'live', itemId: 'i1', subscriptionId: 'sub', decision: 'dispute', reason: 'blurry', priceMicros: null }]);
    expect(decisionsOf(bulkPreview([row(1, 'undecided', null, 'live')], 'dispute', 'live'), ' ')[0]).not.toHaveProperty('reason');
  });
});

describe('bulk run progress', () => {
  const entry = (n: number, state: OutboxEntry['state'], over: Partial<OutboxEntry> = {}): OutboxEntry => ({
    id: `e${n}`,
    scope: 'S',
    connectionId: 'c',
    kind: 'live',
    itemId: `i${n}`,
    subscriptionId: 'sub',
    decision: 'adopt',
    priceMicros: null,
    createdAt: 100,
    sendAfter: 200,
    state,
    attempts: 0,
    nextAttemptAt: 200,
    group: 'query:a',
    ...over,
  });

  it('counts a run’s decisions by where they stand, and ignores other groups', () => {
    const entries = [
      entry(1, 'sent'),
      entry(2, 'sent'),
      entry(3, 'sending'),
      entry(4, 'queued', { held: true }),
      entry(5, 'grace'),
      entry(6, 'failed'),
      entry(7, 'conflict'),
      entry(8, 'discarded'),
      entry(9, 'queued', { group: 'other' }),
      entry(10, 'held-budget', { kind: 'simulated', priceMicros: 17_000 }),
      entry(11, 'needs-confirmation', { kind: 'simulated', priceMicros: 17_000 }),
    ];
    expect(runProgress(entries, 'query:a')).toMatchObject({
      total: 10,
      sent: 2,
      unsent: 5,
      awaitingConfirmation: 1,
      sending: 1,
      inWindow: 1,
      held: 1,
      heldByBudget: 1,
      failed: 1,
      conflicts: 1,
      discarded: 1,
      cancellable: 5,
      startedAt: 100,
    });
  });

  it('finds the newest bulk run by query of a subscription, not a selection’s group', () => {
    const entries = [
      entry(1, 'sent', { group: 'query:old', createdAt: 1 }),
      entry(2, 'sent', { group: 'query:new', createdAt: 5 }),
      entry(3, 'sent', { group: 'selection', createdAt: 9 }),
      entry(4, 'sent', { group: 'query:elsewhere', createdAt: 9, subscriptionId: 'other' }),
    ];
    expect(latestRun(entries, 'sub')).toBe('query:new');
    expect(latestRun([], 'sub')).toBeNull();
  });
});
