import { queryOptions } from '@tanstack/react-query';
import { clientFor, keyedQueryKey, type Connection } from '../../data';
import { splitIds } from './search';

/** A re-read page arrived and is shown, but could not be written to this browser's storage. */
class PageNotKeptError extends Error {
  override readonly name = 'PageNotKeptError';
  readonly title = 'Shown, but not saved on this device';
  constructor(override readonly cause: unknown) {
    super(
      `This page could not be written to this browser's storage (${cause instanceof Error ? cause.message : String(cause)}). Retry reads it again and writes it; a re-read moves nothing on the service.`,
    );
  }
}

// The local store loads with the first read that needs it, not with the first page. Once loaded
// it is used as it is: awaiting import() again, though the module is there, resolves in a task of
// its own, and the answer waited behind whatever the page had queued (7–13 ms of a first pull's
// answer → items painted, bench:ui, timed with marks).
type Keeper = typeof import('./keep-delivered');
// The module's namespace: the same object whenever import() gives it.
// house: computed once
let keeperLoaded: Keeper | undefined;
/** Loads the code that writes a read page to the local store (the review asks for it early). */
export const loadKeeper = (): Promise<Keeper> => import('./keep-delivered').then((module) => (keeperLoaded = module));
// Once loaded, a microtask: no task of its own.
const keeper = async (): Promise<Keeper> => keeperLoaded ?? loadKeeper();

/**
 * Review reads. Re-read pages and pending simulated items are safe to cache and refetch; each
 * answer's write to the local store starts as it arrives, so nothing shown exists only in memory
 * for longer than the write takes. Pending items are listed from the store (as the write starts:
 * use-stored-items.ts), and the read settles with the write; a re-read page is shown from the
 * answer while its write runs, and a failed write is shown beside it (`written`).
 */
export interface RereadParams {
  subscriptionId: string;
  cursor?: string;
  tasks?: string;
  campaigns?: string;
  limit: number;
}

export const rereadPageQuery = (connection: Connection, params: RereadParams) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'reread', params.subscriptionId, params.limit, params.tasks ?? '', params.campaigns ?? '', params.cursor ?? ''],
    queryFn: async ({ signal }) => {
      const page = await clientFor(connection).pullLive(
        {
          subscription_id: params.subscriptionId,
          limit: params.limit,
          from: 'beginning',
          cursor: params.cursor,
          task_ids: splitIds(params.tasks),
          campaign_ids: splitIds(params.campaigns),
        },
        signal,
      );
      const written = keeper()
        .then((keep) => keep.keepLivePage(connection, params.subscriptionId, page.items))
        .catch((cause: unknown) => Promise.reject(new PageNotKeptError(cause)));
      written.catch(() => undefined); // Shown where the page is (useReviewSource), never an unhandled rejection.
      return { ...page, written };
    },
    staleTime: 5 * 60_000,
  });

export const pendingItemsQuery = (connection: Connection, subscriptionId: string, limit: number) =>
  queryOptions({
    queryKey: [...keyedQueryKey(connection), 'pending', subscriptionId, limit],
    queryFn: async ({ signal }) => {
      const page = await clientFor(connection).pullSimulated(subscriptionId, limit, signal);
      await (await keeper()).keepPendingPage(connection, subscriptionId, page.data);
      return page;
    },
    staleTime: Infinity,
  });
