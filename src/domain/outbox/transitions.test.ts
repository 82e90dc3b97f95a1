import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxEntry } from '../../test/outbox-entry';
import { canMove, ENTRY_STATES, IllegalTransition, move, phaseOf, stateLabel, TRANSITIONS, type EntryEvent, type EntryState } from './transitions';

const EVENTS = Object.keys(TRANSITIONS) as EntryEvent[];
const listed = EVENTS.flatMap((event) =>
  Object.entries(TRANSITIONS[event]).flatMap(([from, tos]) => (tos ?? []).map((to) => [from as EntryState, event, to] as const)),
);

afterEach(() => vi.unstubAllEnvs());

describe('the decision states and their transitions', () => {
  it.each(listed)('%s —%s→ %s is allowed, and moves the entry with its fields', (from, event, to) => {
    const entry = outboxEntry({ state: from, attempts: 1 });
    expect(canMove(from, event, to)).toBe(true);
    const moved = move(entry, event, to, { attempts: 2 });
    expect(moved).toEqual({ ...entry, state: to, attempts: 2 });
    // A new entry: entries are replaced, never mutated.
    expect(moved).not.toBe(entry);
    expect(entry.state).toBe(from);
  });

  it('refuses what the table does not list: thrown in tests', () => {
    const unlisted: [EntryState, EntryEvent, EntryState][] = [
      ['sent', 'retry', 'queued'],
      ['sent', 'discard', 'discarded'],
      ['discarded', 'send', 'sending'],
      ['grace', 'send', 'sending'],
      ['sending', 'discard', 'discarded'],
      ['failed', 'confirmed', 'sent'],
      ['held-budget', 'send', 'sending'],
      ['needs-confirmation', 'window-ended', 'queued'],
      ['queued', 'confirmed', 'sent'],
      ['expired', 'retry', 'queued'],
      ['conflict', 'take-over', 'queued'],
      ['grace', 'gate-cleared', 'queued'],
    ];
    for (const [from, event, to] of unlisted) {
      expect(canMove(from, event, to), `${from} ${event} ${to}`).toBe(false);
      expect(() => move(outboxEntry({ state: from }), event, to)).toThrow(IllegalTransition);
    }
  });

  it('refuses in production by logging it and keeping the entry as it was', () => {
    vi.stubEnv('MODE', 'production');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const entry = outboxEntry({ state: 'sent' });
    expect(move(entry, 'retry', 'queued', { attempts: 0 })).toBe(entry);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/cannot go from 'sent' to 'queued' on 'retry'/));
    error.mockRestore();
  });

  it('leaves nothing final: no event moves a confirmed or discarded decision', () => {
    for (const event of EVENTS) {
      expect(TRANSITIONS[event].sent, event).toBeUndefined();
      expect(TRANSITIONS[event].discarded, event).toBeUndefined();
      expect(TRANSITIONS[event]['dropped-team'], event).toBeUndefined();
    }
  });

  it('moves what a team hub holds only on the hub’s news (or a discard), never by sending it', () => {
    const hubMoves = listed.filter(([from]) => from === 'held-team' || from === 'accepted-team');
    expect(hubMoves.filter(([, event]) => !event.startsWith('hub-') && event !== 'take-over').map(([, event, to]) => `${event}→${to}`)).toEqual([
      'discard→discarded',
    ]);
    expect(canMove('held-team', 'send', 'sending')).toBe(false);
    expect(canMove('accepted-team', 'send', 'sending')).toBe(false);
    expect(canMove('accepted-team', 'discard', 'discarded')).toBe(false);
    expect(canMove('held-team', 'hub-dropped', 'dropped-team')).toBe(true);
    expect(canMove('accepted-team', 'hub-dropped', 'dropped-team')).toBe(false);
  });

  it('names and groups every state', () => {
    for (const state of ENTRY_STATES) {
      expect(stateLabel(state)).not.toBe('');
      expect(phaseOf(state)).toBeTruthy();
    }
    // Every state but the final ones can be left.
    const leavable = new Set(listed.filter(([from, , to]) => from !== to).map(([from]) => from));
    expect(ENTRY_STATES.filter((s) => !leavable.has(s))).toEqual(['sent', 'discarded', 'dropped-team', 'decided-team']);
  });

  it('a teammate’s decision is never sent, undone or discarded here: only the hub’s feed changes it', () => {
    expect(listed.filter(([from]) => from === 'decided-team').map(([, event, to]) => `${event}→${to}`)).toEqual(['team-decided→decided-team']);
    expect(canMove('decided-team', 'send', 'sending')).toBe(false);
    expect(canMove('decided-team', 'discard', 'discarded')).toBe(false);
    expect(canMove('decided-team', 'take-over', 'queued')).toBe(false);
  });
});
