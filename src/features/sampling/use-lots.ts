import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { pollUnlessLive, useLocalScope, type Connection } from '../../data';
import type { TriageRow } from '../../domain/triage';
import { newLotId, type LotAction, type LotPlan, type LotSource, type LotValue } from './lot';
import { lotStoreFor, TEAM_LOTS_REFRESH_MS, type LotStore } from './lot-store';
import { drawSample, type RandomUint32 } from './random-sample';

/**
 * Where the connection's lots are kept (lot-store.ts), and how their queries refresh: the local
 * store's are read again when the change feed tells of a write (in this tab or another); the
 * hub's when its change stream tells of a lot or a decision (src/app/live-refresh.ts), and on focus
 * and every few seconds while the stream is not live, so a colleague's new lot or decision shows up.
 */
function useLotStore(connection: Connection) {
  const { scope } = useLocalScope(connection.hub ? null : connection);
  const queryClient = useQueryClient();
  const hubBase = connection.hub ? connection.baseUrl : null;
  const store = useMemo(
    () => lotStoreFor(connection, scope, queryClient),
    // The store depends on where lots are kept, not on the connection object's identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [hubBase, scope, queryClient],
  );
  const refresh =
    store?.where === 'team'
      ? { staleTime: 2_000, refetchOnWindowFocus: 'always' as const, refetchInterval: pollUnlessLive(queryClient, TEAM_LOTS_REFRESH_MS) }
      : { staleTime: Infinity };
  return { store, refresh };
}

/** The connection's lots, newest first. */
export function useLots(connection: Connection) {
  const { store, refresh } = useLotStore(connection);
  const query = useQuery({
    queryKey: store?.key ?? ['lots', 'unknown'],
    queryFn: ({ signal }) => store!.list(signal),
    enabled: store !== null,
    placeholderData: keepPreviousData,
    ...refresh,
  });
  return { store, lots: query.data ?? null, error: query.error };
}

/** One lot; `lot` is null once read and not found (or damaged), undefined while reading. */
export function useLot(connection: Connection, lotId: string | undefined) {
  const { store, refresh } = useLotStore(connection);
  const query = useQuery({
    queryKey: [...(store?.key ?? ['lots', 'unknown']), lotId ?? ''],
    queryFn: ({ signal }) => store!.read(lotId!, signal),
    enabled: store !== null && !!lotId,
    placeholderData: keepPreviousData,
    ...refresh,
  });
  return { store, lot: query.data, error: query.error };
}

export interface NewLot {
  subscriptionId: string;
  kind: 'live' | 'simulated';
  source: LotSource;
  /** The lot: the undecided items of the source. */
  rows: readonly TriageRow[];
  /** The plan as kept (the sample size is what is drawn). */
  plan: LotPlan;
  random?: RandomUint32;
}

/** Draws the sample once and keeps the lot; resolves with its ID once it is committed (on the hub: accepted by it). */
export async function startLot(store: LotStore, { subscriptionId, kind, source, rows, plan, random }: NewLot): Promise<string> {
  const itemIds = rows.map((row) => row.item.itemId);
  const value: LotValue = {
    version: 1,
    kind,
    source,
    itemIds,
    plan,
    sampleIds: drawSample(itemIds, plan.sampleSize, random),
    extensions: [],
    action: null,
  };
  const id = newLotId();
  await store.create({ id, subscriptionId, createdAt: Date.now(), value });
  return id;
}

/** Records what the user did with the rest of the lot (the bulk run's decisions are in the outbox). */
export async function recordLotAction(store: LotStore, lotId: string, action: LotAction): Promise<void> {
  await store.update(lotId, (value) => ({ ...value, action }));
}
