import type { QueryClient } from '@tanstack/react-query';
import type { HubLot, LotValue, SampleDecision } from '../../api/contract/hub-lots';
import { ApiError } from '../../api/errors';
import { hubLotsApi } from '../../api/hub-lots';
import type { Connection } from '../../data';
import { createLot, listLots, localKey, readLot, updateLot } from '../../domain/store';
import { lotOf, lotValueSchema, type Lot } from './lot';

/**
 * Where a connection's lots are kept. Personal mode: this browser's IndexedDB, per organization
 * (the change feed re-reads them in every tab). Hub mode: the team hub (`/hub/v1/lots`), so every
 * member sees a lot and its changes; read again on focus and every few seconds, since another
 * member's change tells this browser nothing.
 */
export interface LotStore {
  /** The queries' key prefix (a lot's key adds its ID). */
  key: readonly unknown[];
  /** Where the lots are kept, for the words on screen. */
  where: 'device' | 'team';
  list: (signal?: AbortSignal) => Promise<Lot[]>;
  read: (id: string, signal?: AbortSignal) => Promise<Lot | null>;
  create: (lot: { id: string; subscriptionId: string; createdAt: number; value: LotValue }) => Promise<void>;
  /** Applies `change` to the lot as kept now; on the hub, re-read and re-applied when another member changed it first. */
  update: (id: string, change: (value: LotValue) => LotValue) => Promise<void>;
}

/** How often a hub's lots are read again while a lots page is open (another member's change). */
export const TEAM_LOTS_REFRESH_MS = 10_000;
const STALE_TRIES = 5;

const teamLot = (lot: HubLot, decisions?: readonly SampleDecision[]): Lot => ({
  ...lot.value,
  id: lot.id,
  subscriptionId: lot.subscription_id,
  createdAt: Date.parse(lot.created_at),
  createdBy: lot.created_by?.email ?? null,
  revision: lot.revision,
  ...(decisions ? { teamDecisions: new Map(decisions.map((d) => [d.item_id, d])) } : {}),
});

/** This browser's lots of one organization (personal mode). */
export function localLotStore(scope: string): LotStore {
  return {
    key: localKey(scope, 'lots'),
    where: 'device',
    list: async () => (await listLots(scope)).map(lotOf).filter((lot): lot is Lot => lot !== null),
    read: async (id) => {
      const row = await readLot(scope, id);
      return row ? lotOf(row) : null;
    },
    create: ({ id, subscriptionId, createdAt, value }) => createLot({ id, scope, subscriptionId, createdAt, value: lotValueSchema.parse(value) }),
    update: async (id, change) => {
      await updateLot(scope, id, (raw) => change(lotValueSchema.parse(raw)));
    },
  };
}

function teamLotStore(baseUrl: string, queryClient: QueryClient): LotStore {
  const api = hubLotsApi(baseUrl);
  // The hub is this console's own origin, one per page: the key needs no base URL.
  const key = ['hub', 'lots'] as const;
  const changed = () => queryClient.invalidateQueries({ queryKey: key });
  return {
    key,
    where: 'team',
    list: async (signal) => (await api.lots(signal)).map(({ sample_decisions, ...lot }) => teamLot(lot, sample_decisions)),
    read: async (id, signal) => {
      try {
        const read = await api.lot(id, signal);
        return teamLot(read.lot, read.sample_decisions);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    create: async ({ id, subscriptionId, value }) => {
      await api.createLot({ id, subscription_id: subscriptionId, value: lotValueSchema.parse(value) });
      await changed();
    },
    update: async (id, change) => {
      // Read, change, write from that revision; a colleague's write in between is 409 LOT_CHANGED: read again, apply again.
      for (let attempt = 1; ; attempt++) {
        const { lot: current } = await api.lot(id);
        try {
          await api.updateLot(id, { revision: current.revision, value: lotValueSchema.parse(change(current.value)) });
          break;
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'LOT_CHANGED') || attempt >= STALE_TRIES) throw error;
        }
      }
      await changed();
    },
  };
}

/** The connection's lot store: the team hub's in hub mode, else this browser's (once the organization is known). */
export function lotStoreFor(connection: Connection, scope: string | null, queryClient: QueryClient): LotStore | null {
  if (connection.hub) return teamLotStore(connection.baseUrl, queryClient);
  return scope === null ? null : localLotStore(scope);
}
