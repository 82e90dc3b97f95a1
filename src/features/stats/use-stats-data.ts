import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { useLocalScope, type Connection } from '../../data';
import { useDisputeReasons, type ReasonCode } from '../dispute-reasons';
import { localKey, type StoredItem } from '../../domain/store';
import { useOutboxEntries } from '../../data';
import type { OutboxEntry } from '../../domain/outbox/model';
import { loadSubscriptionItems, toTriageRows } from '../../domain/triage';
import { statsOf, type SubscriptionStats } from './aggregate';

export interface StatsData {
  /** The organization's local store, once known (a connection saved unverified is verified first). */
  scope: string | null;
  /** Each subscription's statistics, in the order asked; absent until its items are read. */
  bySubscription: Map<string, SubscriptionStats> | null;
  /** The decisions of this tab and every confirmed or discarded one (for the review pace). */
  entries: readonly OutboxEntry[];
  /** The organization's reason codes (disputes are counted by them). */
  reasons: readonly ReasonCode[];
  error: unknown;
  refetch: () => void;
}

/**
 * The statistics' inputs: every item row the local store holds for the subscriptions (one read
 * each, through TanStack Query, read again when items arrive or are deleted, in this tab or
 * another), joined with the outbox's decisions. The join and the one-pass statistics are redone
 * when decisions change, behind a deferred value so a stream of sends never blocks typing.
 */
export function useStatsData(connection: Connection, subscriptionIds: readonly string[]): StatsData {
  const { scope, error: scopeError } = useLocalScope(connection);

  const idsKey = subscriptionIds.join('\n');
  // Under the items of these subscriptions (localKey): read again when the store says they changed.
  const queryKey = useMemo(() => [...localKey(scope, 'items', idsKey ? idsKey.split('\n') : []), 'stats'] as const, [scope, idsKey]);
  const items = useQuery({
    queryKey,
    queryFn: async (): Promise<Map<string, StoredItem[]>> => {
      const ids = idsKey ? idsKey.split('\n') : [];
      const lists = await Promise.all(ids.map((id) => loadSubscriptionItems(scope!, id)));
      return new Map(ids.map((id, index) => [id, lists[index]!]));
    },
    enabled: scope !== null,
    // Read on every visit (items pulled elsewhere meanwhile are included) and again when the store
    // says it changed while the page is open; not on focus: another tab's pull is announced. The
    // snapshot (up to 100,000 rows per subscription) is not kept once the page is left.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const entries = useOutboxEntries(connection.id);
  const deferredEntries = useDeferredValue(entries);
  const { reasons } = useDisputeReasons(connection);
  const bySubscription = useMemo(() => {
    if (!items.data) return null;
    const perSubscription = new Map<string, OutboxEntry[]>();
    for (const entry of deferredEntries) {
      const list = perSubscription.get(entry.subscriptionId);
      if (list) list.push(entry);
      else perSubscription.set(entry.subscriptionId, [entry]);
    }
    const codes = reasons.map((r) => r.code);
    const stats = new Map<string, SubscriptionStats>();
    for (const [id, rows] of items.data) stats.set(id, statsOf(toTriageRows(rows, perSubscription.get(id) ?? []), codes));
    return stats;
  }, [items.data, deferredEntries, reasons]);

  return { scope, bySubscription, entries, reasons, error: scopeError ?? items.error ?? null, refetch: () => void items.refetch() };
}
