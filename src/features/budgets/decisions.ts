import { useOtherTabsEntries, useOutbox, useOutboxEntries, useLocalScope, type Connection } from '../../data';
import type { OutboxEntry } from '../../domain/outbox/model';

export interface ConnectionDecisions {
  /** This tab's decisions on the connection's organization with every confirmed or discarded one. */
  entries: readonly OutboxEntry[];
  /** Other open tabs' unfinished decisions on it. */
  others: readonly OutboxEntry[];
  /** The organization on a base URL its decisions and budgets live under (null until known). */
  scope: string | null;
  /** This tab (page load): the visit's spend is what it cleared. */
  tab: string;
  /** Sends this tab's held decisions (after the user confirmed their total); how many were released. */
  release: (entryIds: readonly string[]) => number;
  /** Discards this tab's held decisions: never sent, kept and listed as discarded, their items undecided again. */
  discard: (entryIds: readonly string[]) => void;
}

/** A connection's decisions, live, from the outbox the app provides (src/data). */
export function useBudgetDecisions(connection: Connection): ConnectionDecisions {
  const outbox = useOutbox();
  // Spend and budgets follow a decision once its keypress has painted: their sums run over every decision.
  const entries = useOutboxEntries(connection.id, 'after-paint');
  const others = useOtherTabsEntries(connection.id, 'after-paint');
  const { scope } = useLocalScope(connection);
  return {
    entries,
    others,
    scope,
    tab: outbox.tab,
    release: (ids) => outbox.releaseBudget(connection.id, ids),
    discard: (ids) => outbox.discard(connection.id, ids),
  };
}
