import type { OutboxEntry } from '../domain/outbox/model';

/** An outbox entry for tests: a confirmed adopt of a simulated item at 1.25¢, unless changed. */
export const outboxEntry = (over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id: over.itemId ?? 'e',
  scope: 'S',
  connectionId: 'c1',
  kind: 'simulated',
  itemId: 'i1',
  subscriptionId: 'sim',
  decision: 'adopt',
  priceMicros: 12_500,
  createdAt: 0,
  sendAfter: 0,
  state: 'sent',
  attempts: 1,
  nextAttemptAt: 0,
  ...over,
});
