import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocalScope, type Connection } from '../../data';
import { localDb, localKey } from '../../domain/store';
import { useOtherTabsEntries, useOutboxEntries } from '../../data';
import { loadSubscriptionItems, textIndexOf, toTriageRows } from '../../domain/triage';

/**
 * Every item a subscription holds with its triage state: the store's rows (read again when the
 * store changes) joined with the outbox's decisions of this tab and the others (joined again on
 * every decision, without reading the store), so decisions made anywhere show at once.
 */
export function useTriageRows(connection: Connection, subscriptionId: string) {
  const { scope, error: scopeError } = useLocalScope(connection);
  const items = useQuery({
    // Under the subscription's items (localKey): read again whenever the store says they changed, here or in another tab.
    queryKey: [...localKey(scope, 'items', subscriptionId), 'triage'],
    queryFn: () => loadSubscriptionItems(scope!, subscriptionId),
    enabled: scope !== null,
    // The rows already shown stay while the store is read again (no flash on every pull).
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    // 100,000 rows are a few tens of MB: an older version is not kept once nothing shows it.
    gcTime: 0,
  });
  const entries = useOutboxEntries(connection.id);
  const otherTabs = useOtherTabsEntries(connection.id);
  const rows = useMemo(() => (items.data ? toTriageRows(items.data, [...otherTabs, ...entries]) : null), [items.data, otherTabs, entries]);
  // Changes with every read of the rows: what is built from them (the text index) is brought up to date.
  const version = items.dataUpdatedAt;
  return { scope, version, rows, error: scopeError ?? items.error ?? null };
}

/**
 * The content index of a subscription, built only while `wanted` (a text search is typed) and
 * brought up to date with the store's version. `building` is true while pages are read.
 */
export function useTextIndex(scope: string | null, subscriptionId: string, version: number, wanted: boolean) {
  const query = useQuery({
    queryKey: ['dds', 'local', 'triage-text', scope, subscriptionId, version],
    queryFn: () => textIndexOf(localDb(), scope!, subscriptionId),
    enabled: wanted && scope !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 0,
  });
  return { index: wanted ? query.data?.index : undefined, building: wanted && query.isFetching, error: query.error };
}
