import { describe, expect, it, vi } from 'vitest';
import { BudgetGating, regated, releasedPastLimit, type BudgetGate, type BudgetGatingDeps } from './budget-gating';
import type { OutboxEntry } from './model';
import { move } from './transitions';
import { ScopeEntries } from './scope-entries';

const NOW = Date.UTC(2026, 10, 21);
const charged = (id: string, extra: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id,
  scope: 'S',
  connectionId: 'c',
  kind: 'simulated',
  itemId: `item-${id}`,
  subscriptionId: 'sim',
  decision: 'adopt',
  priceMicros: 17_000,
  createdAt: NOW + Number(id.replace(/\D/g, '')),
  sendAfter: NOW,
  state: 'queued',
  attempts: 0,
  nextAttemptAt: NOW,
  ...extra,
});
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const HELD_BY = { level: 'organization', period: 'daily', limitMicros: 50_000, spentMicros: 34_000 } as const;

/**
 * A gate whose verdicts the test gives: each candidate past `room` is held. Memory is a
 * ScopeEntries the test changes; `put` is what the engine's change would do.
 */
function world(room = 1, overrides: Partial<BudgetGatingDeps> = {}) {
  const own = new ScopeEntries();
  const asked: string[][] = [];
  let changed: ((scope: string) => void) | null = null;
  let answer: ((decided: OutboxEntry[]) => void) | null = null;
  let failNext = false;
  const gate: BudgetGate = {
    applies: (_scope, subscriptionId) => subscriptionId === 'sim',
    decide: vi.fn(async (_scope, candidates: readonly OutboxEntry[], tab: string) => {
      asked.push(candidates.map((e) => e.id));
      if (failNext) {
        failNext = false;
        throw new Error('locked');
      }
      const decided = candidates.map((e, i) =>
        i < room
          ? move(e, 'gate-cleared', e.state === 'held-budget' ? 'queued' : e.state, { budget: { at: NOW, tab } })
          : move(e, 'gate-held', 'held-budget', { heldBy: HELD_BY }),
      );
      if (!answer) return decided;
      return new Promise<OutboxEntry[]>((resolve) => (answer = () => resolve(decided)));
    }),
    onChange: (listener) => void (changed = listener),
  };
  const puts: [OutboxEntry, boolean][] = [];
  const deps: BudgetGatingDeps = {
    gate,
    tab: 'me',
    now: () => NOW,
    unwritten: () => false,
    inFlight: () => false,
    current: (_scope, id) => own.get(id),
    put: (_scope, entry, written) => {
      puts.push([entry, written]);
      own.put(entry);
    },
    decided: vi.fn(),
    pump: vi.fn(),
    ...overrides,
  };
  const gating = new BudgetGating(deps);
  return {
    gating,
    own,
    deps,
    asked,
    puts,
    budgetsChanged: () => changed!('S'),
    holdAnswers: () => {
      answer = () => undefined;
      return () => answer!([]);
    },
    failNext: () => (failNext = true),
  };
}

describe('budget gating', () => {
  it('gates charged decisions not yet cleared, of subscriptions a budget applies to; never a cleared or free one', () => {
    const { gating } = world();
    const gated = gating.gatedIn('S');
    expect(gated(charged('e1'))).toBe(true);
    expect(gated(charged('e2', { budget: { at: NOW, tab: 'me' } }))).toBe(false);
    expect(gated(charged('e3', { subscriptionId: 'other' }))).toBe(false);
    expect(gated(charged('e4', { kind: 'live' }))).toBe(false);
  });

  it('asks the gate one batch, oldest first, and applies each verdict (the gate wrote it)', async () => {
    const w = world(1);
    w.own.put(charged('e2'));
    w.own.put(charged('e1'));
    expect(w.gating.due('S', w.own)).toBe(true);
    w.gating.run('S', w.own);
    await flush();
    expect(w.asked).toEqual([['e1', 'e2']]);
    expect(w.puts.map(([e, written]) => [e.id, e.state, e.budget?.tab, written])).toEqual([
      ['e1', 'queued', 'me', true],
      ['e2', 'held-budget', undefined, true],
    ]);
    expect(w.deps.decided).toHaveBeenCalledWith('S');
    expect(w.deps.pump).toHaveBeenCalled();
    expect(w.gating.due('S', w.own)).toBe(false);
  });

  it('skips what is unwritten or in flight, and leaves a verdict on an entry changed meanwhile to that change', async () => {
    const w = world(2, { unwritten: (id) => id === 'e3', inFlight: (id) => id === 'e4' });
    for (const id of ['e1', 'e2', 'e3', 'e4']) w.own.put(charged(id));
    const letGo = w.holdAnswers();
    w.gating.run('S', w.own);
    // One batch at a time per scope.
    w.gating.run('S', w.own);
    expect(w.asked).toEqual([['e1', 'e2']]);
    const discarded = move(w.own.get('e1')!, 'discard', 'discarded', { discardedAt: NOW });
    w.own.put(discarded);
    letGo();
    await flush();
    expect(w.puts.map(([e]) => e.id)).toEqual(['e2']);
    expect(w.own.get('e1')).toBe(discarded);
  });

  it('writes again a candidate the gate left out (its stored row differed), to weigh it with the next batch', async () => {
    const w = world(1);
    w.own.put(charged('e1'));
    (w.deps.gate.decide as ReturnType<typeof vi.fn>).mockResolvedValueOnce([]);
    w.gating.run('S', w.own);
    await flush();
    expect(w.puts.map(([e, written]) => [e.id, e.state, written])).toEqual([['e1', 'queued', false]]);
    expect(w.deps.decided).not.toHaveBeenCalled();
  });

  it('after a budget changed, weighs again held decisions and cleared ones never sent (not one the user released), and holds them back meanwhile', async () => {
    const w = world(0);
    w.own.put(charged('e1', { state: 'held-budget', heldBy: HELD_BY }));
    w.own.put(charged('e2', { budget: { at: NOW, tab: 'me' } }));
    w.own.put(charged('e3', { budget: { at: NOW, tab: 'me', released: true } }));
    w.own.put(charged('e4', { budget: { at: NOW, tab: 'me' }, attempts: 1 }));
    expect(w.gating.due('S', w.own)).toBe(false);
    w.budgetsChanged();
    expect(w.deps.pump).toHaveBeenCalledTimes(1);
    expect(w.gating.due('S', w.own)).toBe(true);
    const cleared = w.own.get('e2')!;
    const letGo = w.holdAnswers();
    w.gating.run('S', w.own);
    expect(w.asked).toEqual([['e1', 'e2']]);
    expect(w.gating.gatedIn('S')(cleared)).toBe(true);
    letGo();
    await flush();
    expect(w.gating.gatedIn('S')(cleared)).toBe(false);
    expect(w.own.get('e2')!.state).toBe('held-budget');
  });

  it('after a failed gate, waits before asking again rather than spin', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'Date'] });
    try {
      let now = NOW;
      const w = world(1, { now: () => now });
      w.own.put(charged('e1'));
      w.failNext();
      w.gating.run('S', w.own);
      await vi.advanceTimersByTimeAsync(0);
      expect(w.puts).toEqual([]);
      w.gating.run('S', w.own);
      expect(w.asked).toHaveLength(1);
      now += 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
      w.gating.run('S', w.own);
      await vi.advanceTimersByTimeAsync(0);
      expect(w.asked).toHaveLength(2);
      expect(w.own.get('e1')!.budget).toEqual({ at: NOW, tab: 'me' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('budget verdicts the user overrides', () => {
  it('regated: a confirmed decision cleared in an earlier visit is weighed again; released or tried ones stay cleared', () => {
    expect(regated(charged('e1', { budget: { at: 1, tab: 't' } })).budget).toBeUndefined();
    expect(regated(charged('e2', { budget: { at: 1, tab: 't', released: true } })).budget).toEqual({ at: 1, tab: 't', released: true });
    expect(regated(charged('e3', { budget: { at: 1, tab: 't' }, attempts: 2 })).budget).toEqual({ at: 1, tab: 't' });
  });

  it('releasedPastLimit: queued now, counted as spend from now, never held again', () => {
    const released = releasedPastLimit(charged('e1', { state: 'held-budget', heldBy: HELD_BY, nextAttemptAt: 0 }), NOW + 5, 'me');
    expect(released).toMatchObject({ state: 'queued', nextAttemptAt: NOW + 5, budget: { at: NOW + 5, tab: 'me', released: true } });
    expect(released.heldBy).toBeUndefined();
  });
});
