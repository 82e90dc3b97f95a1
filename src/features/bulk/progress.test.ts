import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../domain/outbox/model';
import { runParts, runProgress } from './progress';

// Every state an entry can be in (the type fails to compile if the outbox gains one this list lacks).
const STATES = [
  'grace',
  'queued',
  'sending',
  'sent',
  'failed',
  'conflict',
  'needs-confirmation',
  'expired',
  'discarded',
  'held-budget',
  'held-team',
  'accepted-team',
  'dropped-team',
  'decided-team',
] as const;
type Missing = Exclude<OutboxEntry['state'], (typeof STATES)[number]>;
const complete: Missing extends never ? true : false = true;

const entry = (state: OutboxEntry['state'], i: number, held = false): OutboxEntry =>
  ({
    id: `e${i}`,
    kind: 'simulated',
    itemId: `i${i}`,
    subscriptionId: 'sub',
    decision: 'adopt',
    priceMicros: 10,
    state,
    createdAt: i,
    attempts: 0,
    group: 'query:run',
    ...(held ? { held } : {}),
  }) as OutboxEntry;

describe('runParts', () => {
  it('knows every state', () => expect(complete).toBe(true));

  it('puts every decision of a run in exactly one part: the parts add up to what was recorded, whatever the states', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...STATES), fc.boolean()), { maxLength: 60 }), (states) => {
        const p = runProgress(
          states.map(([state, held], i) => entry(state, i, held)),
          'query:run',
        );
        const sum = runParts(p).reduce((total, part) => total + part.count, 0);
        expect(sum).toBe(p.total);
        expect(p.total).toBe(states.length);
        // What Cancel names is what is neither confirmed, on the wire, cancelled nor decided on the service.
        expect(p.cancellable).toBe(p.inWindow + p.queued + p.heldByBudget + p.failed);
      }),
    );
  });

  it('names the parts in the order a decision moves through them', () => {
    const p = runProgress([entry('grace', 1), entry('sending', 2), entry('sent', 3), entry('held-budget', 4)], 'query:run');
    expect(runParts(p).map((part) => `${part.count} ${part.label}`)).toEqual([
      '1 in the undo window',
      '0 queued',
      '1 on the wire',
      '1 confirmed',
      '1 held by budget',
      '0 failed',
    ]);
  });

  it('names a conflict for what it is on either side of a hub: another decision, or an item a teammate holds', () => {
    const parts = runParts(runProgress([entry('conflict', 1), entry('sent', 2)], 'query:run'));
    expect(parts.map((part) => `${part.count} ${part.label}`)).toContain('1 not taken: decided or leased by someone else');
  });
});
