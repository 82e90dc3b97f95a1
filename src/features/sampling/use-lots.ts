import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocalScope, type Connection } from '../../data';
import { createLot, listLots, localKey, readLot, updateLot } from '../../domain/store';
import type { TriageRow } from '../../domain/triage';
import { lotOf, lotValueSchema, newLotId, type Lot, type LotAction, type LotPlan, type LotSource, type LotValue } from './lot';
import { drawSample, type RandomUint32 } from './random-sample';

/** A scope's lots, read again whenever a lot is written, in this tab or another (their key is under `localKey(scope, 'lots')`). */
export function useLots(connection: Connection) {
  const { scope } = useLocalScope(connection);
  const query = useQuery({
    queryKey: localKey(scope, 'lots'),
    queryFn: async () => (await listLots(scope!)).map(lotOf).filter((lot): lot is Lot => lot !== null),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  return { scope, lots: query.data ?? null, error: query.error };
}

/** One lot; `lot` is null once read and not found (or damaged), undefined while reading. */
export function useLot(connection: Connection, lotId: string | undefined) {
  const { scope } = useLocalScope(connection);
  const query = useQuery({
    queryKey: localKey(scope, 'lots', lotId ?? ''),
    queryFn: async () => {
      const row = await readLot(scope!, lotId!);
      return row ? lotOf(row) : null;
    },
    enabled: scope !== null && !!lotId,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  return { scope, lot: query.data, error: query.error };
}

export interface NewLot {
  scope: string;
  subscriptionId: string;
  kind: 'live' | 'simulated';
  source: LotSource;
  /** The lot: the undecided items of the source. */
  rows: readonly TriageRow[];
  /** The plan as kept (the sample size is what is drawn). */
  plan: LotPlan;
  random?: RandomUint32;
}

/** Draws the sample once and keeps the lot; resolves with its ID once it is committed. */
export async function startLot({ scope, subscriptionId, kind, source, rows, plan, random }: NewLot): Promise<string> {
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
  await createLot({ id, scope, subscriptionId, createdAt: Date.now(), value: lotValueSchema.parse(value) });
  return id;
}

/** Records what the user did with the rest of the lot (the bulk run's decisions are in the outbox). */
export async function recordLotAction(scope: string, lotId: string, action: LotAction): Promise<void> {
  await updateLot(scope, lotId, (raw) => ({ ...lotValueSchema.parse(raw), action }));
}
