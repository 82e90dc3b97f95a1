import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUDGETS_SETTING } from '../budgets/budgets-document';
import type { Budgets } from '../budgets/model';
import type { SpendReceipt } from '../budgets/spend';
import { ConsoleDb, setDatabaseForTests } from '../store';
import { budgetGate } from './budget-gate';
import { OutboxEngine } from './engine';
import type { NewDecision, OutboxEntry } from './model';
import { indexedDbStore } from './store';
import { outboxEntry } from '../../test/outbox-entry';
import type { TabRegistry } from './tabs';

/** Open tabs with a broadcast channel between them (as tabs.ts gives in a browser); none closes here. */
function fakeTabs() {
  const channel = new Map<string, (scope: string) => void>();
  return (id: string): TabRegistry => ({
    id,
    whenGone: () => undefined,
    announce: (scope) => {
      for (const [tab, listener] of channel) if (tab !== id) queueMicrotask(() => listener(scope));
    },
    onAnnounce: (listener) => void channel.set(id, listener),
  });
}

const S = 'http://dds org_1';
const PRICE = 17_000; // 1.7¢
let db: ConsoleDb;
let n = 0;
let tabs = fakeTabs();
let receipts: SpendReceipt[] = [];

const item = (itemId: string, subscriptionId = 'sim'): NewDecision => ({ kind: 'simulated', itemId, subscriptionId, decision: 'adopt', priceMicros: PRICE });
const daily = (micros: number): Budgets => ({ organization: { daily: micros }, subscriptions: {} });
const setBudgets = (budgets: Budgets) => db.settings.put({ scope: S, name: BUDGETS_SETTING, value: budgets, updatedAt: Date.now() });

let receiptReads = 0;

function tab(name: string, before: () => Promise<void> = async () => undefined) {
  const sent: OutboxEntry[] = [];
  const gate = budgetGate({
    receipts: async () => {
      receiptReads++;
      return receipts;
    },
    db,
    locks: null,
  });
  const decide = vi.spyOn(gate, 'decide');
  const engine = new OutboxEngine({
    store: indexedDbStore(db),
    send: async (entry) => {
      await before();
      sent.push(entry);
    },
    onKeyRefused: () => undefined,
    isOnline: () => true,
    graceMs: () => 0,
    tabs: tabs(name),
    budget: gate,
    nextFrame: (fn) => queueMicrotask(fn),
  });
  return { engine, sent, decide };
}

const stored = async () => (await db.decisions.where('scope').equals(S).toArray()) as unknown as OutboxEntry[];
const statesOf = async () => (await stored()).map((e) => [e.itemId, e.state]).sort();
/** Waits until the outbox is quiet: nothing charged is left on its way anywhere. */
async function settled(...engines: OutboxEngine[]) {
  await vi.waitFor(
    async () => {
      for (const engine of engines) await engine.whenWritten();
      const rows = await stored();
      expect(rows.filter((e) => e.state === 'grace' || e.state === 'queued' || e.state === 'sending')).toEqual([]);
    },
    { timeout: 5_000, interval: 20 },
  );
}

beforeEach(() => {
  db = new ConsoleDb(`budget-gate-${++n}`);
  setDatabaseForTests(db);
  tabs = fakeTabs();
  receipts = [];
  receiptReads = 0;
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

describe('budget gate in the outbox', () => {
  it('holds the 3rd and 4th 1.7¢ adopt under a $0.05 daily limit: only 2 leave, the held ones are stored with their limit', async () => {
    await setBudgets(daily(50_000));
    const a = tab('A');
    const before = Date.now();
    for (const id of ['i1', 'i2', 'i3', 'i4']) a.engine.enqueue(S, item(id));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1', 'i2']);
    expect(await statesOf()).toEqual([
      ['i1', 'sent'],
      ['i2', 'sent'],
      ['i3', 'held-budget'],
      ['i4', 'held-budget'],
    ]);
    const held = (await stored()).find((e) => e.itemId === 'i3')!;
    expect(held.heldBy).toEqual({ level: 'organization', period: 'daily', limitMicros: 50_000, spentMicros: 34_000, at: expect.any(Number) });
    // When it was held: which day's spend that was.
    expect(held.heldBy!.at).toBeGreaterThanOrEqual(before);
    expect(held.heldBy!.at).toBeLessThanOrEqual(Date.now());
    expect(
      a.engine
        .entriesOf(S)
        .filter((e) => e.state === 'held-budget')
        .map((e) => e.itemId),
    ).toEqual(['i3', 'i4']);
  });

  it('lets two tabs adopting at once spend no more than the limit together', async () => {
    await setBudgets(daily(50_000));
    const a = tab('A');
    const b = tab('B');
    await Promise.all([a.engine.load(S), b.engine.load(S)]);
    for (const id of ['a1', 'a2', 'a3']) a.engine.enqueue(S, item(id));
    for (const id of ['b1', 'b2', 'b3']) b.engine.enqueue(S, item(id));
    await settled(a.engine, b.engine);
    const sent = [...a.sent, ...b.sent];
    expect(sent).toHaveLength(2);
    expect((await statesOf()).filter(([, state]) => state === 'held-budget')).toHaveLength(4);
  });

  it('counts receipts confirmed elsewhere: two 1.7¢ charges today leave room for none more under $0.05', async () => {
    await setBudgets(daily(50_000));
    receipts = ['r1', 'r2'].map((id) => ({ kind: 'adopt', item_id: id, subscription_id: 'sim', amount_usd: 0.017, created_at: new Date().toISOString() }));
    const a = tab('A');
    a.engine.enqueue(S, item('i1'));
    await settled(a.engine);
    expect(a.sent).toEqual([]);
    expect(await statesOf()).toEqual([['i1', 'held-budget']]);
  });

  it('sends held decisions that fit once the limit is raised, and the rest only when released, each once', async () => {
    await setBudgets(daily(50_000));
    const a = tab('A');
    for (const id of ['i1', 'i2', 'i3', 'i4']) a.engine.enqueue(S, item(id));
    await settled(a.engine);
    expect(a.sent).toHaveLength(2);
    // Raised through the budgets' own path, as the Budgets page does: every tab is told.
    const { changeBudgets } = await import('../budgets/store');
    await changeBudgets(S, () => daily(60_000));
    await vi.waitFor(() => expect(a.sent.map((e) => e.itemId)).toEqual(['i1', 'i2', 'i3']));
    await settled(a.engine);
    expect(await statesOf()).toContainEqual(['i4', 'held-budget']);
    const held = a.engine.entriesOf(S).filter((e) => e.state === 'held-budget');
    expect(
      a.engine.releaseBudget(
        S,
        held.map((e) => e.id),
      ),
    ).toBe(1);
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1', 'i2', 'i3', 'i4']);
    expect((await statesOf()).every(([, state]) => state === 'sent')).toBe(true);
    // Released, it counts as spend: a new adopt is held (68,000 spent of 60,000).
    a.engine.enqueue(S, item('i5'));
    await settled(a.engine);
    expect(a.sent).toHaveLength(4);
  });

  it('discards a held decision on request: never sent, and a later raise of the limit does not send it', async () => {
    await setBudgets(daily(17_000));
    const a = tab('A');
    for (const id of ['i1', 'i2']) a.engine.enqueue(S, item(id));
    await settled(a.engine);
    const held = a.engine.entriesOf(S).find((e) => e.state === 'held-budget')!;
    expect(a.engine.isDiscardable(S, held)).toBe(true);
    a.engine.discard(S, [held.id]);
    const { changeBudgets } = await import('../budgets/store');
    await changeBudgets(S, () => daily(1_000_000));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1']);
    expect(await statesOf()).toEqual([
      ['i1', 'sent'],
      ['i2', 'discarded'],
    ]);
  });

  it('takes a budgets document with an unknown key for damage, never for "no limit": nothing charged leaves', async () => {
    // "Daily" is no key of the budgets: read loosely, the organization had no daily limit at all.
    await db.settings.put({ scope: S, name: BUDGETS_SETTING, value: { organization: { Daily: 50_000 }, subscriptions: {} }, updatedAt: Date.now() });
    const a = tab('A');
    for (const id of ['i1', 'i2', 'i3', 'i4']) a.engine.enqueue(S, item(id));
    await vi.waitFor(() => expect(a.decide).toHaveBeenCalled());
    await expect(a.decide.mock.results[0]!.value).rejects.toThrow(/damaged/);
    await a.engine.whenWritten();
    expect(a.sent).toEqual([]);
    expect((await statesOf()).map(([, state]) => state)).toEqual(['queued', 'queued', 'queued', 'queued']);
  });

  it('once limits were set, a missing budgets record is damage, not "no limit"', async () => {
    const { changeBudgets } = await import('../budgets/store');
    await changeBudgets(S, () => daily(50_000));
    // The row deleted (by hand, by another program): the marker beside it says limits were set.
    await db.settings.delete([S, BUDGETS_SETTING]);
    const a = tab('A');
    a.engine.enqueue(S, item('i1'));
    await vi.waitFor(() => expect(a.decide).toHaveBeenCalled());
    await expect(a.decide.mock.results[0]!.value).rejects.toThrow(/damaged/);
    expect(a.sent).toEqual([]);
    // Saved again: the limits are back, and what fits goes.
    await changeBudgets(S, () => daily(50_000));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1']);
  });

  it('counts periods in trusted time: a clock set back 26 h opens no new day, in the same visit or after a reload, and says why it holds', async () => {
    await setBudgets(daily(50_000));
    const a = tab('A');
    for (const id of ['i1', 'i2']) a.engine.enqueue(S, item(id));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1', 'i2']);
    const real = Date.now();
    const back = vi.spyOn(Date, 'now').mockImplementation(() => real - 26 * 3_600_000);
    try {
      // The same tab: its clock now says yesterday, when nothing was spent.
      a.engine.enqueue(S, item('i3'));
      await settled(a.engine);
      // A reload (a new gate, nothing in memory): the decisions and the kept time remember today.
      const b = tab('B');
      b.engine.enqueue(S, item('i4'));
      await settled(b.engine);
      expect([...a.sent, ...b.sent].map((e) => e.itemId)).toEqual(['i1', 'i2']);
      const held = (await stored()).filter((e) => e.state === 'held-budget');
      expect(held.map((e) => e.itemId).sort()).toEqual(['i3', 'i4']);
      for (const e of held) expect(e.heldClock!.trustedAt - e.heldClock!.localAt).toBeGreaterThan(25 * 3_600_000);
      // Even with every decision row gone, the time the gate kept remembers it.
      await db.decisions.clear();
      const c = tab('C');
      c.engine.enqueue(S, item('i5'));
      await settled(c.engine);
      expect(c.sent).toEqual([]);
      expect((await stored()).find((e) => e.itemId === 'i5')?.state).toBe('held-budget');
    } finally {
      back.mockRestore();
    }
  });

  it('sends nothing charged while the stored budgets cannot be read (damaged), and resumes once they are saved again', async () => {
    // A limit the user set, damaged on disk (another version, a hand edit): never read as "no limit".
    await db.settings.put({ scope: S, name: BUDGETS_SETTING, value: { organization: { daily: 'fifty cents' }, subscriptions: {} }, updatedAt: Date.now() });
    const a = tab('A');
    a.engine.enqueue(S, item('i1'));
    a.engine.enqueue(S, { kind: 'live', itemId: 'l1', subscriptionId: 'live', decision: 'adopt', priceMicros: null });
    // The gate was asked, and refused to answer: the charged one stays unsent; a free one is not held back.
    await vi.waitFor(() => expect(a.decide).toHaveBeenCalled());
    await expect(a.decide.mock.results[0]!.value).rejects.toThrow(/damaged/);
    await vi.waitFor(() => expect(a.sent.map((e) => e.itemId)).toEqual(['l1']));
    expect(await statesOf()).toContainEqual(['i1', 'queued']);
    // Saved again through the Budgets page's path (a damaged document is replaced whole): it goes, under the limit.
    const { changeBudgets } = await import('../budgets/store');
    await changeBudgets(S, () => daily(50_000));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['l1', 'i1']);
  });

  it('weighs charged decisions found after a reload again when the user confirms them: cleared in an earlier visit is not cleared now', async () => {
    // A visit may spend 1.7¢. The tab that cleared two adopts (another visit, or yesterday) closed before sending them.
    await setBudgets({ organization: { visit: PRICE }, subscriptions: {} });
    const at = Date.now() - 60_000;
    const cleared = (itemId: string, attempts: number, createdAt: number) =>
      outboxEntry({
        id: itemId,
        scope: S,
        itemId,
        priceMicros: PRICE,
        state: 'queued',
        owner: 'gone',
        attempts,
        createdAt,
        sendAfter: at,
        budget: { at, tab: 'gone' },
      });
    // g0 was tried already (its answer lost): the service may hold it, so it is sent again, never held back.
    const found = [cleared('g0', 1, at - 20), cleared('g1', 0, at - 10), cleared('g2', 0, at - 9)];
    await db.decisions.bulkPut(found.map((e) => ({ ...e })));
    const open = fakeTabs();
    tabs = (id) => ({ ...open(id), whenGone: (owner, onGone) => void (owner === 'gone' && queueMicrotask(onGone)) });
    const b = tab('B');
    await b.engine.load(S);
    await vi.waitFor(async () =>
      expect(await statesOf()).toEqual([
        ['g0', 'needs-confirmation'],
        ['g1', 'needs-confirmation'],
        ['g2', 'needs-confirmation'],
      ]),
    );
    // The user confirms the amount: the two never tried go through this visit's limit, the second is held.
    b.engine.confirm(S, ['g0', 'g1', 'g2']);
    await settled(b.engine);
    expect(b.sent.map((e) => e.itemId).sort()).toEqual(['g0', 'g1']);
    expect(await statesOf()).toEqual([
      ['g0', 'sent'],
      ['g1', 'sent'],
      ['g2', 'held-budget'],
    ]);
  });

  it('weighs cleared decisions not yet sent again when a limit is lowered: only those already on the wire still go', async () => {
    await setBudgets(daily(10 * PRICE));
    let open!: () => void;
    const wire = new Promise<void>((resolve) => (open = resolve));
    const a = tab('A', () => wire);
    await a.engine.load(S);
    a.engine.enqueueMany(
      S,
      Array.from({ length: 10 }, (_, i) => item(`i${i}`)),
      'run',
    );
    // All ten cleared; four on the wire (the outbox sends four at a time), six waiting their turn.
    await vi.waitFor(async () => expect((await stored()).filter((e) => e.budget !== undefined)).toHaveLength(10));
    await vi.waitFor(() => expect(a.engine.entriesOf(S).filter((e) => e.state === 'sending')).toHaveLength(4));
    // The user lowers the daily limit to one item: the four in flight already pass it, so the six wait are held.
    const { changeBudgets } = await import('../budgets/store');
    await changeBudgets(S, () => daily(PRICE));
    await vi.waitFor(async () => expect((await statesOf()).filter(([, state]) => state === 'held-budget')).toHaveLength(6));
    open();
    await settled(a.engine);
    expect(a.sent).toHaveLength(4);
  });

  it('sends charged decisions as before when no budget is set: no receipts read, nothing marked', async () => {
    const a = tab('A');
    for (const id of ['i1', 'i2', 'i3']) a.engine.enqueue(S, item(id));
    await settled(a.engine);
    expect(a.sent.map((e) => e.itemId)).toEqual(['i1', 'i2', 'i3']);
    expect(receiptReads).toBe(0);
    expect((await stored()).filter((e) => e.budget !== undefined)).toEqual([]);
  });

  it('decides a run of charged decisions in a few batches, and lets decisions no limit applies to skip the gate', async () => {
    await setBudgets({ organization: {}, subscriptions: { sim: { daily: 500 * PRICE } } });
    const a = tab('A');
    await a.engine.load(S);
    a.engine.enqueueMany(
      S,
      Array.from({ length: 1_000 }, (_, i) => item(`i${i}`)),
      'run',
    );
    await settled(a.engine);
    expect(a.sent).toHaveLength(500);
    expect(a.decide.mock.calls.length).toBeLessThanOrEqual(5);
    // Another subscription has no limit: once the budgets are known, its decisions skip the gate.
    const before = a.decide.mock.calls.length;
    const get = vi.spyOn(db.settings, 'get');
    a.engine.enqueueMany(
      S,
      Array.from({ length: 50 }, (_, i) => item(`o${i}`, 'other')),
      'other',
    );
    await settled(a.engine);
    expect(a.sent).toHaveLength(550);
    expect(a.decide.mock.calls.length).toBe(before);
    expect(get).not.toHaveBeenCalled();
  });
});
