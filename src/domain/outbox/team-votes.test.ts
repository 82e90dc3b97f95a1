import { describe, expect, it } from 'vitest';
import { teamVotesOf, teamVotesText } from './team-votes';

describe('team votes', () => {
  it('reads the hub’s voted answer, and nothing else', () => {
    const voted = { ok: true, item_id: 'i', status: 'adopted', hub: { state: 'voted', votes: 1, needed: 2, outcome: null } };
    expect(teamVotesOf(voted)).toEqual({ votes: 1, needed: 2, outcome: null });
    expect(teamVotesOf({ ok: true, hub: { state: 'sent', decision_id: 'dec_1' } })).toBeUndefined();
    expect(teamVotesOf({ ok: true, item_id: 'i', status: 'adopted' })).toBeUndefined();
    expect(teamVotesOf(undefined)).toBeUndefined();
    expect(teamVotesText({ votes: 1, needed: 2, outcome: null })).toBe('1 of 2 votes: the team decides when 2 are in');
    expect(teamVotesText({ votes: 2, needed: 2, outcome: 'lead' })).toBe('2 of 2 votes, split: the lead settles it');
    expect(teamVotesText({ votes: 3, needed: 3, outcome: 'adopt' })).toBe('3 of 3 votes: the team decided adopt');
  });
});
