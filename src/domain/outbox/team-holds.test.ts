import { describe, expect, it } from 'vitest';
import { outboxEntry } from '../../test/outbox-entry';
import { holdOf, settleTeamHold, settleTeamHolds, type TeamHold } from './team-holds';

const hold = (over: Partial<TeamHold> = {}): TeamHold => ({
  id: 'h1',
  item_id: 'i1',
  kind: 'adopt',
  state: 'open',
  resolved_at: null,
  resolved_by: null,
  decision_state: 'held',
  outcome: 'BUDGET_HELD',
  ...over,
});
const held = outboxEntry({ state: 'held-team', holdId: 'h1', attempts: 1 });
const NOW = Date.UTC(2026, 10, 26, 10);

describe('what a team hub’s hold makes of a held adopt', () => {
  it('keeps it held while the hold is open', () => {
    expect(settleTeamHold(held, hold(), NOW)).toBe(held);
  });

  it('released and delivered by the hub: confirmed, as a normal adopt', () => {
    const released = hold({ state: 'released', resolved_at: '2026-11-26T09:00:00.000Z', resolved_by: 'm-admin', decision_state: 'sent', outcome: 'ok' });
    expect(settleTeamHold(held, released, NOW)).toMatchObject({ state: 'sent', sentAt: NOW, holdId: 'h1' });
  });

  it('released but queued on the hub: accepted by the hub (no browser retry), then confirmed once the hub sent it', () => {
    const accepted = settleTeamHold(held, hold({ state: 'released', decision_state: 'queued' }), NOW);
    expect(accepted.state).toBe('accepted-team');
    // Still queued (or on its way) on the hub: nothing changes.
    expect(settleTeamHold(accepted, hold({ state: 'released', decision_state: 'sending' }), NOW)).toBe(accepted);
    expect(settleTeamHold(accepted, hold({ state: 'released', decision_state: 'sent' }), NOW + 1)).toMatchObject({ state: 'sent', sentAt: NOW + 1 });
  });

  it('dropped on the hub: dropped, saying by whom and when', () => {
    const dropped = settleTeamHold(
      held,
      hold({ state: 'dropped', resolved_at: '2026-11-26T09:30:00.000Z', resolved_by: 'm-admin', resolved_by_email: 'admin@team', decision_state: 'dropped' }),
      NOW,
    );
    expect(dropped).toMatchObject({ state: 'dropped-team', droppedBy: 'admin@team', discardedAt: Date.parse('2026-11-26T09:30:00.000Z') });
    // Without the resolver's email, the hold's member id; without a time, now.
    expect(settleTeamHold(held, hold({ state: 'dropped', resolved_by: 'm-admin' }), NOW)).toMatchObject({ droppedBy: 'm-admin', discardedAt: NOW });
  });

  it('released, then refused by the vendor: failed, with the vendor’s code', () => {
    expect(settleTeamHold(held, hold({ state: 'released', decision_state: 'refused', outcome: 'ITEM_NOT_FOUND' }), NOW)).toMatchObject({
      state: 'failed',
      lastError: 'The vendor refused the released adopt (ITEM_NOT_FOUND).',
    });
  });

  it('finds the hold by its id, or for an entry held before ids were kept, the newest hold of an adopt of its item', () => {
    const holds = [hold({ id: 'h9', item_id: 'i2' }), hold({ id: 'h3', item_id: 'i1', kind: 'dispute' }), hold({ id: 'h2' }), hold({ id: 'h1' })];
    expect(holdOf(held, holds)?.id).toBe('h1');
    expect(holdOf({ ...held, holdId: 'gone' }, holds)).toBeUndefined();
    const { holdId: _none, ...withoutId } = held;
    expect(holdOf(withoutId, holds)?.id).toBe('h2');
    // The id found is kept on the entry.
    expect(settleTeamHold(withoutId, hold({ id: 'h2', state: 'dropped' }), NOW).holdId).toBe('h2');
  });

  it('moves only what the hub holds, and returns only what changed', () => {
    const sent = outboxEntry({ itemId: 'i2', state: 'sent' });
    const failed = outboxEntry({ itemId: 'i3', state: 'failed' });
    const other = outboxEntry({ itemId: 'i4', state: 'held-team', holdId: 'h4' });
    const holds = [hold({ state: 'dropped' }), hold({ id: 'h4', item_id: 'i4' }), hold({ id: 'x', item_id: 'i2', state: 'dropped' })];
    expect(settleTeamHolds([held, sent, failed, other], holds, NOW).map((e) => [e.itemId, e.state])).toEqual([['i1', 'dropped-team']]);
    // A hold that does not exist (yet) for the entry: unchanged.
    expect(settleTeamHold(held, undefined, NOW)).toBe(held);
  });
});
