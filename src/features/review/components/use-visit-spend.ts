import { useMemo, useState } from 'react';
import { sumMicros } from '../../../lib/money';
import { isOnItsWay } from '../../../domain/outbox/transitions';
import { isCharged, type OutboxEntry } from '../../../domain/outbox/model';
import { visitSpending, type ReviewItem } from '../model';

export interface VisitSpend {
  /** Charges the service confirmed this visit, in micro-USD. */
  spent: number;
  /** Charges recorded and not yet confirmed, in micro-USD. */
  onTheirWay: number;
}

/**
 * What this visit has cost: charges the service confirmed since the visit started (resumed
 * decisions included, repeats of an adopt it already held not), and those on their way.
 * A visit is the workspace open on one subscription: it starts when the component using this
 * mounts (the workspace mounts anew for each subscription), not when the code was loaded.
 */
export function useVisitSpend(entries: readonly OutboxEntry[], otherTabs: readonly OutboxEntry[], items: readonly ReviewItem[]): VisitSpend {
  const [visitStart] = useState(() => Date.now());
  const alreadyAdopted = useMemo(
    () =>
      new Set([
        ...items.filter((item) => item.serverState === 'adopted').map((item) => item.id),
        ...otherTabs.filter((e) => isCharged(e) && e.state === 'sent').map((e) => e.itemId),
      ]),
    [items, otherTabs],
  );
  // Over every entry: computed when they change, not on each keypress that re-renders the workspace.
  return useMemo(
    () => ({
      spent: visitSpending(entries, alreadyAdopted, visitStart),
      onTheirWay: sumMicros(entries.filter((e) => isCharged(e) && isOnItsWay(e.state)).map((e) => e.priceMicros ?? 0)),
    }),
    [entries, alreadyAdopted, visitStart],
  );
}
