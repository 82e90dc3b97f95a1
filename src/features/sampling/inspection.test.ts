import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../../domain/store';
import type { TriageRow, TriageState } from '../../domain/triage';
import { inspectionStatus } from './inspection';
import type { Lot, StandardLotPlan } from './lot';

const row = (id: string, state: TriageState): TriageRow => ({ item: { itemId: id } as StoredItem, state, decidedAt: state === 'undecided' ? null : 1 });
const plan = (over: Partial<StandardLotPlan> = {}): StandardLotPlan => ({
  kind: 'standard',
  lotSize: 10,
  level: 'II',
  aql: '6.5',
  severity: 'normal',
  codeLetter: 'B',
  planLetter: 'B',
  arrow: null,
  tableSampleSize: 3,
  sampleSize: 3,
  ac: 0,
  re: 1,
  tighterAc: null,
  switchingWhy: '',
  resumed: false,
  approvedReduced: false,
  ...over,
});

/** A lot of 10 items, 3 sampled; `defects` of the sample disputed, the others adopted (or undecided when `done` is false). */
function lot(i: number, defects: number, rows: Map<string, TriageRow>, done = true, subscriptionId = 'sub'): Lot {
  const itemIds = Array.from({ length: 10 }, (_, k) => `l${i}-${k}`);
  const sampleIds = itemIds.slice(0, 3);
  sampleIds.forEach((id, k) => rows.set(id, row(id, !done ? 'undecided' : k < defects ? 'disputed' : 'adopted')));
  return {
    id: `lot${i}`,
    subscriptionId,
    createdAt: 1000 + i,
    version: 1,
    kind: 'simulated',
    source: { kind: 'delivery', deliveryId: 'd', description: '' },
    itemIds,
    plan: plan(),
    sampleIds,
    extensions: [],
    action: null,
  };
}

describe("a subscription's inspection state, from its lots", () => {
  it('five lots with two rejections switch to tightened, in the order the lots were made', () => {
    const rows = new Map<string, TriageRow>();
    const lots = [lot(1, 0, rows), lot(2, 1, rows), lot(3, 0, rows), lot(4, 0, rows), lot(5, 2, rows)];
    const status = inspectionStatus([...lots].reverse(), rows, 'sub');
    expect(status.steps.map((s) => s.to)).toEqual(['normal', 'normal', 'normal', 'normal', 'tightened']);
    expect(status.machine.state).toBe('tightened');
    expect(status.why).toContain('2 of the last 5');
  });
  it('undecided lots wait; lots of other subscriptions and of the zero-acceptance plan do not count', () => {
    const rows = new Map<string, TriageRow>();
    const other = lot(3, 1, rows, true, 'other');
    const zero = {
      ...lot(4, 1, rows),
      plan: {
        kind: 'zero-acceptance' as const,
        lotSize: 10,
        confidencePct: 95,
        defectRateBp: 500,
        sampleSize: 3,
        assumedDefects: 1,
        binomialSize: 59,
        formula: '',
      },
    };
    const status = inspectionStatus([lot(1, 1, rows), lot(2, 0, rows, false), other, zero], rows, 'sub');
    expect(status.steps).toHaveLength(1);
    expect(status.pending.map((l) => l.id)).toEqual(['lot2']);
    expect(status.machine.state).toBe('normal');
  });
});
