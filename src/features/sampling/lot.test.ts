import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleDb, createChangeFeed, listLots, localChanges, readLot, setDatabaseForTests, type LocalChange, type StoredItem } from '../../domain/store';
import type { OutboxEntry } from '../../domain/outbox/model';
import type { TriageRow, TriageState } from '../../domain/triage';
import { lotOf, lotProgress, type Lot } from './lot';
import { lotDocument } from './lot-export';
import { samplePlan } from './plan';
import { seededRandom } from './random-sample';
import { localLotStore } from './lot-store';
import { recordLotAction, startLot } from './use-lots';

const item = (i: number): StoredItem => ({
  scope: 'S',
  subscriptionId: 'sub',
  itemId: `it-${i}`,
  kind: 'simulated',
  seq: i,
  receivedAt: 0,
  via: 'pending',
  open: 1,
  serverDecision: null,
  taskId: null,
  campaignId: null,
  frontierId: null,
  verticalId: null,
  topicId: null,
  qualityScore: null,
  qualityGrade: null,
  qualityMethod: null,
  source: null,
  priceMicros: 17_000,
  validatorCount: null,
  consensusRatio: null,
  createdAt: null,
});
const row = (i: number, state: TriageState = 'undecided', entry?: Partial<OutboxEntry>): TriageRow => ({
  item: item(i),
  state,
  ...(entry ? { entry: entry as OutboxEntry } : {}),
  decidedAt: state === 'undecided' ? null : 1_000,
});

let db: ConsoleDb;
let name = 0;
beforeEach(() => {
  db = new ConsoleDb(`lots-${++name}`);
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

async function newLot(size = 200): Promise<Lot> {
  const rows = Array.from({ length: size }, (_, i) => row(i));
  const plan = { kind: 'zero-acceptance' as const, ...samplePlan({ lotSize: size, confidencePct: 95, defectRateBp: 500 }) };
  const id = await startLot(localLotStore('S'), {
    subscriptionId: 'sub',
    kind: 'simulated',
    source: { kind: 'filter', filters: { grade: 'A' }, description: 'grade A' },
    rows,
    plan,
    random: seededRandom(3),
  });
  return lotOf((await readLot('S', id))!)!;
}

describe('lots in the local store', () => {
  it('keeps the lot whole: its items, the plan, the sample drawn once', async () => {
    const changes: string[] = [];
    const stop = localChanges().subscribe((change) => change.table === 'lots' && changes.push(...(change.ids ?? [])));
    const lot = await newLot();
    stop();
    expect(changes).toEqual([lot.id]);
    expect(lot.itemIds).toHaveLength(200);
    expect(lot.plan).toMatchObject({ lotSize: 200, sampleSize: 51, assumedDefects: 10, binomialSize: 59 });
    expect(new Set(lot.sampleIds).size).toBe(51);
    for (const id of lot.sampleIds) expect(lot.itemIds).toContain(id);
    // Read again, the sample is the same: it is stored, never drawn again.
    expect(lotOf((await readLot('S', lot.id))!)!.sampleIds).toEqual(lot.sampleIds);
    expect(await readLot('other scope', lot.id)).toBeNull();
    expect((await listLots('S')).map((r) => r.id)).toEqual([lot.id]);
  });

  it('records what was done with the rest', async () => {
    const lot = await newLot();
    await recordLotAction(localLotStore('S'), lot.id, {
      decision: 'adopt',
      at: 5,
      recorded: 127,
      totalMicros: 1_234,
      outcome: { reviewed: 51, defects: 0, lower: 0, upper: 0.07, recommendation: 'accept', decision: 'accepted' },
    });
    expect(lotOf((await readLot('S', lot.id))!)!.action).toMatchObject({ decision: 'adopt', recorded: 127, totalMicros: 1_234 });
  });

  it('tells other tabs of every write, and hears theirs (BroadcastChannel)', async () => {
    // A store whose feed is on a channel, as the app's is.
    const shared = new ConsoleDb(`lots-shared-${Math.random()}`, createChangeFeed('lots-test'));
    setDatabaseForTests(shared);
    const otherTab = new BroadcastChannel('lots-test');
    try {
      const told = new Promise<unknown>((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data), { once: true }));
      const lot = await newLot(20);
      expect(await told).toEqual({ scope: 'S', table: 'lots', ids: [lot.id] });
      const heard = new Promise<LocalChange>((resolve) => {
        const stop = shared.changes.subscribe((change) => {
          stop();
          resolve(change);
        });
      });
      otherTab.postMessage({ scope: 'S', table: 'lots', ids: ['lot_from_another_tab'] });
      expect(await heard).toEqual({ scope: 'S', table: 'lots', ids: ['lot_from_another_tab'] });
    } finally {
      otherTab.close();
      shared.changes.close();
      await shared.delete();
      setDatabaseForTests(db);
    }
  });

  it('reads a damaged value as no lot', () => {
    expect(lotOf({ id: 'x', scope: 'S', subscriptionId: 'sub', createdAt: 0, value: { version: 2 } })).toBeNull();
  });
});

describe("a lot's progress", () => {
  it('counts adopted as good and disputed as defects, decisions on their way included, and lists the rest', async () => {
    const lot = await newLot();
    const [a, b, c, d] = lot.sampleIds.map((id) => Number(id.slice(3)));
    const rows = new Map<string, TriageRow>();
    for (let i = 0; i < 200; i++) rows.set(`it-${i}`, row(i));
    rows.set(`it-${a}`, row(a!, 'adopted'));
    rows.set(`it-${b}`, row(b!, 'disputed'));
    rows.set(`it-${c}`, row(c!, 'waiting', { decision: 'dispute' }));
    rows.set(`it-${d}`, row(d!, 'failed'));
    const progress = lotProgress(lot, rows);
    // 2 defects under a zero-acceptance plan: rejected (one would do).
    expect(progress).toMatchObject({ reviewed: 3, defects: 2, sampleSize: 51, missing: 0, unsent: 1, decision: 'rejected', recommendation: 'dispute' });
    expect(progress.defectRate).toBeCloseTo(2 / 3, 12);
    expect(progress.rest).toHaveLength(149);
    expect(progress.rest.some((r) => lot.sampleIds.includes(r.item.itemId))).toBe(false);

    const doc = lotDocument(lot, rows, new Date(0));
    expect(doc.sample).toHaveLength(51);
    expect(doc.sample.find((s) => s.item_id === `it-${c}`)).toMatchObject({ state: 'waiting', decision: 'dispute' });
    expect(doc.sample.find((s) => s.item_id === `it-${d}`)).toMatchObject({ state: 'failed', decision: null });
    expect(doc.outcome).toMatchObject({ reviewed: 3, defects: 2, decision: 'rejected', recommendation: 'dispute' });
    expect(doc.plan).toMatchObject({
      kind: 'zero-acceptance',
      lot_size: 200,
      confidence: 0.95,
      tolerated_defect_rate: 0.05,
      sample_size: 51,
      acceptance_number: 0,
    });
  });

  it('accepts a clean sample of the plan’s size (its rule, c = 0), and counts items the store lost', async () => {
    const lot = await newLot();
    const rows = new Map<string, TriageRow>();
    for (let i = 0; i < 200; i++) rows.set(`it-${i}`, row(i, 'adopted'));
    expect(lotProgress(lot, rows)).toMatchObject({ reviewed: 51, defects: 0, decision: 'accepted', recommendation: 'accept' });
    rows.delete(lot.sampleIds[0]!);
    expect(lotProgress(lot, rows)).toMatchObject({ reviewed: 50, missing: 1 });
  });

  it('on a team hub, counts a colleague’s decisions on sampled items this browser has not decided (or does not hold)', async () => {
    const lot = await newLot();
    const rows = new Map<string, TriageRow>();
    for (let i = 0; i < 200; i++) rows.set(`it-${i}`, row(i));
    const [first, second, third] = lot.sampleIds as [string, string, string];
    rows.delete(third);
    const team: Lot = {
      ...lot,
      teamDecisions: new Map([
        [first, { item_id: first, decision: 'adopt', by: 'b@team' }],
        [second, { item_id: second, decision: 'dispute', by: 'b@team' }],
        [third, { item_id: third, decision: 'adopt', by: 'b@team' }],
      ]),
    };
    expect(lotProgress(lot, rows)).toMatchObject({ reviewed: 0, missing: 1 });
    expect(lotProgress(team, rows)).toMatchObject({ reviewed: 3, defects: 1, missing: 0, decision: 'rejected' });
    // This browser's own decision comes first.
    rows.set(second, row(0, 'adopted'));
    expect(lotProgress(team, rows)).toMatchObject({ reviewed: 3, defects: 0 });
    expect(lotDocument(team, rows).sample.find((s: { item_id: string }) => s.item_id === first)).toMatchObject({ decision: 'adopt', decided_by: 'b@team' });
  });
});
