import { useCallback, useEffect, useState } from 'react';
import { localScope, type Connection } from '../../data';
import { countItems, countScope, localChanges, localDb, storageUse, type StorageUse } from '../../domain/store';

interface SubscriptionCount {
  subscriptionId: string;
  total: number;
  open: number;
}

export interface LocalSummary {
  scope: string | null;
  subscriptions: SubscriptionCount[];
  total: number;
  open: number;
  storage: StorageUse | null;
  error: unknown;
}

const EMPTY: LocalSummary = { scope: null, subscriptions: [], total: 0, open: 0, storage: null, error: null };

/** What this device keeps for a connection's organization: items per subscription, and the storage used. */
async function readLocalSummary(connection: Connection): Promise<LocalSummary> {
  const scope = await localScope(connection);
  const db = localDb();
  const subscriptions = await Promise.all(connection.subscriptions.map(async (s) => ({ subscriptionId: s.id, ...(await countItems(db, scope, s.id)) })));
  const total = await countScope(db, scope);
  const open = subscriptions.reduce((sum, s) => sum + s.open, 0);
  return { scope, subscriptions, total, open, storage: await storageUse(), error: null };
}

export function useLocalSummary(connection: Connection | null): LocalSummary & { refresh: () => void } {
  const [summary, setSummary] = useState<LocalSummary>(EMPTY);
  const refresh = useCallback(() => {
    if (!connection) return;
    readLocalSummary(connection).then(setSummary, (error: unknown) => setSummary({ ...EMPTY, error }));
  }, [connection]);
  useEffect(() => {
    refresh();
    return localChanges().subscribe((change) => change.table === 'items' && refresh());
  }, [refresh]);
  return { ...summary, refresh };
}
