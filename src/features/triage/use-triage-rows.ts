import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { keyScope, localScope, type Connection } from '../../data';
import { localDb, watchItems } from '../../domain/store';
import { useOtherTabsEntries, useOutboxEntries } from '../outbox';
import { loadSubscriptionItems, textIndexOf, toTriageRows } from '../../domain/triage';

/**
 * The local store's version of one subscription: it changes whenever items are added or deleted,
 * here or in another tab (watchItems), so queries keyed by it read the store again.
 */
function useStoreVersion(scope: string | null, subscriptionId: string): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!scope) return;
    return watchItems((change) => {
      if (change.scope === scope && (change.subscriptionId === subscriptionId || change.subscriptionId === '*')) setVersion((v) => v + 1);
    });
  }, [scope, subscriptionId]);
  return version;
}

/**
 * Every item a subscription holds with its triage state: the store's rows (read again when the
 * store changes) joined with the outbox's decisions of this tab and the others (joined again on
 * every decision, without reading the store), so decisions made anywhere show at once.
 */
export function useTriageRows(connection: Connection, subscriptionId: string) {
  const scopeQuery = useQuery({ queryKey: [...keyScope(connection), 'local-scope'], queryFn: () => localScope(connection), staleTime: Infinity });
  const scope = scopeQuery.data ?? null;
  const version = useStoreVersion(scope, subscriptionId);
  const items = useQuery({
    queryKey: [...keyScope(connection), 'triage-items', scope, subscriptionId, version],
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
  return { scope, version, rows, error: scopeQuery.error ?? items.error ?? null };
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
