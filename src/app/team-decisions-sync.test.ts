import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamDecisionsResponse } from '../api/contract/hub-decisions';
import { ConsoleDb, readSetting, setDatabaseForTests } from '../domain/store';
import type { TeamDecisionNews } from '../domain/outbox/team-decisions';
import { syncTeamDecisions } from './team-decisions-sync';

/** The hub's feed as a script of answers by query; a path no answer names fails the test. */
const answers = new Map<string, TeamDecisionsResponse | Error>();
const asked: string[] = [];
vi.mock('../api/hub', () => ({
  hubCall: vi.fn(async (schema: { parse: (v: unknown) => unknown }, path: string) => {
    asked.push(path);
    const answer = answers.get(path);
    if (answer === undefined) throw new Error(`unexpected ${path}`);
    if (answer instanceof Error) throw answer;
    return schema.parse(answer);
  }),
}));

const S = 'http://hub member:m1';
const BASE = '/inbox/decisions?subscription_id=sim&limit=500';
const decided = (itemId: string, kind: 'adopt' | 'dispute') => ({
  family: 'data' as const,
  item_id: itemId,
  decision: { kind, state: 'sent' as const, by: { id: 'm2', email: 'reviewer2@team' }, at: '2026-11-21T00:00:00.000Z' },
  votes: null,
});
const cursor = () => readSetting(S, 'team-decisions:sim', (v) => (typeof v === 'number' ? v : null));

let n = 0;
beforeEach(() => {
  setDatabaseForTests(new ConsoleDb(`team-decisions-${++n}`));
  answers.clear();
  asked.length = 0;
});
afterEach(() => setDatabaseForTests(null));

describe('the team decisions sync', () => {
  it('reads a snapshot in pages, then only what changed after its cursor, kept in the scope’s settings', async () => {
    const applied: TeamDecisionNews[][] = [];
    const apply = vi.fn(async (_scope: string, news: readonly TeamDecisionNews[]) => {
      applied.push([...news]);
      return news.length;
    });
    answers.set(BASE, { decisions: [decided('a', 'adopt')], next: 10, snapshot_from: 'a', has_more: true });
    answers.set(`${BASE}&after=10&snapshot_from=a`, { decisions: [decided('b', 'dispute')], next: 10, snapshot_from: null, has_more: false });
    expect(await syncTeamDecisions(S, 'sim', 'hub', apply)).toBe(2);
    expect(applied.flat()).toEqual([
      { kind: 'simulated', subscriptionId: 'sim', itemId: 'a', decision: { kind: 'adopt', by: 'reviewer2@team', at: Date.UTC(2026, 10, 21) } },
      { kind: 'simulated', subscriptionId: 'sim', itemId: 'b', decision: { kind: 'dispute', by: 'reviewer2@team', at: Date.UTC(2026, 10, 21) } },
    ]);
    expect(await cursor()).toBe(10);

    // Next time: the changes after 10 (a undecided again), and the cursor moves on.
    answers.set(`${BASE}&after=10`, {
      decisions: [{ family: 'data', item_id: 'a', decision: null, votes: null }],
      next: 14,
      snapshot_from: null,
      has_more: false,
    });
    expect(await syncTeamDecisions(S, 'sim', 'hub', apply)).toBe(1);
    expect(applied.at(-1)).toEqual([{ kind: 'simulated', subscriptionId: 'sim', itemId: 'a', decision: null }]);
    expect(await cursor()).toBe(14);

    // A teammate's adopt held by the team's budget: not decided here.
    const held = decided('c', 'adopt');
    answers.set(`${BASE}&after=14`, {
      decisions: [{ ...held, decision: { ...held.decision, state: 'held' } }],
      next: 15,
      snapshot_from: null,
      has_more: false,
    });
    await syncTeamDecisions(S, 'sim', 'hub', apply);
    expect(applied.at(-1)).toEqual([{ kind: 'simulated', subscriptionId: 'sim', itemId: 'c', decision: null }]);
  });

  it('writes no cursor for a snapshot left half read: the next sync starts it again, and nothing is skipped', async () => {
    const apply = vi.fn(async () => 0);
    answers.set(BASE, { decisions: [decided('a', 'adopt')], next: 10, snapshot_from: 'a', has_more: true });
    answers.set(`${BASE}&after=10&snapshot_from=a`, new Error('offline'));
    await expect(syncTeamDecisions(S, 'sim', 'hub', apply)).rejects.toThrow('offline');
    expect(await cursor()).toBeNull();
    answers.set(`${BASE}&after=10&snapshot_from=a`, { decisions: [], next: 10, snapshot_from: null, has_more: false });
    await syncTeamDecisions(S, 'sim', 'hub', apply);
    expect(asked.filter((p) => p === BASE)).toHaveLength(2);
    expect(await cursor()).toBe(10);
  });
});
