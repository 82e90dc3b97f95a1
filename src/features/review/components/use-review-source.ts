import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { clientFor, pullRefusal, useLocalScope, type Connection, type ConnectionSubscription } from '../../../data';
import { localDb, requestPersistence, unrecoveredLosses, type PullRecord } from '../../../domain/store';
import { AnswerLostError, NotStoredError, pullAllNew, pullNew, recover, type LivePullDeps, type Progress } from '../live-pulls';
import { fromLive, type ReviewItem } from '../model';
import { loadKeeper, pendingItemsQuery, rereadPageQuery } from '../queries';
import { pageSizeError, type ReviewSearch } from '../search';
import { useStableHandlers } from './use-stable-handlers';
import { useStoredItems } from './use-stored-items';

export interface ReviewSourceProps {
  connection: Connection;
  subscription: ConnectionSubscription;
  search: ReviewSearch;
}

/** A long task on the subscription (Pull all new, Recover): its progress, and how to stop it. */
export interface LongTask {
  kind: 'pull-all' | 'recover';
  progress: Progress;
  cancel: () => void;
}

/**
 * Where the review's items come from. New items (live, incremental) and pending simulated items
 * are listed from the local store: every pulled item is written there before it shows, so a
 * reload, a crash or another tab finds them all. Re-read pages come from the service (and are
 * stored too), one page at a time, with the cursor in the URL.
 */
export function useReviewSource({ connection, subscription, search }: ReviewSourceProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const live = subscription.kind === 'live';
  const mode = live ? search.mode : 'pending';
  // An invalid page size is never sent (the pull controls say why).
  const sizeOk = pageSizeError(search.limit) === null;
  // A hub viewer pulls no new items (the hub would refuse it): no key or button of theirs sends one.
  const refusal = mode === 'new' ? pullRefusal(connection) : null;

  // The organization's local store: known at once for a verified connection, else after one verify.
  const { scope, error: scopeError } = useLocalScope(connection);

  // Ready before the first pull, not after its answer: the database opened (created, on a
  // browser's first visit; a re-read lists nothing from the store, so nothing else opens it) and
  // the code that writes a read page loaded (fetched after the answer, it took 15–100 ms before
  // the page could paint, bench:ui).
  useEffect(() => {
    localDb()
      .open()
      .catch(() => undefined); // A database that cannot open says so at its first use, where it is shown.
    loadKeeper().catch(() => undefined);
    // The page's first toLocaleString builds ICU's number formatter: 20–100 ms in a fresh tab
    // (bench:ui), paid by the first render that counts the list's items unless paid here, once
    // the review is on screen. Later calls reuse it.
    const warm = () => void (0).toLocaleString();
    if (typeof requestIdleCallback === 'function') {
      const idle = requestIdleCallback(warm, { timeout: 500 });
      return () => cancelIdleCallback(idle);
    }
    const timer = setTimeout(warm, 0);
    return () => clearTimeout(timer);
  }, []);

  const stored = useStoredItems(mode === 'reread' ? null : scope, subscription.id);
  const deps = useMemo<LivePullDeps | null>(
    () => (scope ? { db: localDb(), scope, client: clientFor(connection), subscriptionId: subscription.id } : null),
    [scope, connection, subscription.id],
  );

  // Incremental pulls whose answer was lost since the last Recover (kept in the store, so a reload still knows).
  const [losses, setLosses] = useState<readonly PullRecord[]>([]);
  const refreshLosses = useCallback(() => {
    if (!scope || !live) return;
    void unrecoveredLosses(localDb(), scope, subscription.id).then(setLosses, () => undefined);
  }, [scope, live, subscription.id]);
  useEffect(refreshLosses, [refreshLosses]);

  const [task, setTask] = useState<LongTask | null>(null);
  // Whether the service said more new items wait (after a Pull, or Pull all new).
  const [liveHasMore, setLiveHasMore] = useState<boolean | null>(null);
  const cancelled = useRef(false);

  // Options of one identity while their inputs stay: new ones would make the observer take them
  // again after every render of the workspace, which renders on every keypress.
  const limit = search.limit;
  const connectionId = connection.id;
  const incremental = useMutation(
    useMemo(
      () => ({
        mutationFn: async () => {
          if (!deps) throw new Error('The local store is not ready yet.');
          void requestPersistence();
          return pullNew(deps, limit);
        },
        onSuccess: (result: Awaited<ReturnType<typeof pullNew>>) => setLiveHasMore(result.page.hasMore),
        onSettled: refreshLosses,
        meta: { connectionId },
      }),
      [deps, limit, refreshLosses, connectionId],
    ),
  );

  const runLong = async (kind: LongTask['kind']) => {
    if (!deps || task || refusal) return;
    cancelled.current = false;
    const controller = new AbortController();
    const start: Progress = { pages: 0, read: 0, added: 0, done: false };
    const cancel = () => {
      cancelled.current = true;
      // A re-read may be aborted mid-page (it moves nothing); an incremental pull never is.
      if (kind === 'recover') controller.abort();
      setTask((t) => (t ? { ...t, cancel } : t));
    };
    setTask({ kind, progress: start, cancel });
    const onProgress = (progress: Progress) => setTask((t) => (t ? { ...t, progress } : t));
    try {
      const progress =
        kind === 'pull-all' ? await pullAllNew(deps, search.limit, onProgress, () => cancelled.current) : await recover(deps, onProgress, controller.signal);
      setLastTask({ kind, progress, cancelled: cancelled.current, error: null });
      if (kind === 'pull-all' && progress.done) setLiveHasMore(false);
      // A finished Recover answers the lost pull: its alert (with a Retry that would pull a new page) goes.
      if (kind === 'recover' && progress.done && !cancelled.current && incremental.error instanceof AnswerLostError) incremental.reset();
    } catch (error) {
      setLastTask({ kind, progress: start, cancelled: cancelled.current, error: controller.signal.aborted ? null : error });
    } finally {
      setTask(null);
      refreshLosses();
    }
  };
  const [lastTask, setLastTask] = useState<{ kind: LongTask['kind']; progress: Progress; cancelled: boolean; error: unknown } | null>(null);

  const rereadParams = { subscriptionId: subscription.id, cursor: search.cursor, tasks: search.tasks, campaigns: search.campaigns, limit: search.limit };
  const rereadKey = `reread:${search.cursor ?? ''}:${search.tasks ?? ''}:${search.campaigns ?? ''}`;
  // While the next page loads, the current one stays on screen (no skeleton).
  const reread = useQuery({
    ...rereadPageQuery(connection, rereadParams),
    enabled: mode === 'reread' && !!search.run && sizeOk,
    placeholderData: keepPreviousData,
  });
  const pending = useQuery({ ...pendingItemsQuery(connection, subscription.id, search.limit), enabled: mode === 'pending' && !!search.run && sizeOk });

  // The last re-read page that arrived, and which page it is: when the next one fails, it stays
  // on screen beside the error instead of an empty list.
  const [shownPage, setShownPage] = useState<{ key: string; data: NonNullable<typeof reread.data> } | null>(null);
  if (reread.data && !reread.isPlaceholderData && (shownPage?.key !== rereadKey || shownPage.data !== reread.data))
    setShownPage({ key: rereadKey, data: reread.data });
  const freshPage = reread.data && !reread.isPlaceholderData ? reread.data : null;
  const rereadPage = useMemo(() => (freshPage ? { key: rereadKey, data: freshPage } : shownPage), [freshPage, rereadKey, shownPage]);
  const rereadItems = rereadPage?.data.items;

  const rereadList: ReviewItem[] = useMemo(() => (rereadItems ?? []).map((s) => fromLive(s, subscription.id)), [rereadItems, subscription.id]);
  // The page on screen could not be written (it shows while its write runs): said beside it, with Retry.
  const rereadNotKept = useRejection(rereadPage?.data.written);
  // A page that arrived but could not be stored stays on screen (with a blocking notice to save it as a file).
  const unsaved = incremental.error instanceof NotStoredError ? incremental.error.page.items : null;
  const storedList = useMemo(
    () => (unsaved ? [...stored.items, ...unsaved.map((s) => fromLive(s, subscription.id))] : stored.items),
    [stored.items, unsaved, subscription.id],
  );
  const items = mode === 'reread' ? rereadList : storedList;

  const nextCursor = mode === 'reread' ? (rereadPage?.data.nextCursor ?? null) : null;
  const pull = () => {
    if (!sizeOk || refusal) return;
    if (mode === 'new') incremental.mutate();
    else if (mode === 'reread') void navigate({ search: (prev) => ({ ...prev, run: true, cursor: undefined }) });
    else if (search.run) void pending.refetch();
    else void navigate({ search: (prev) => ({ ...prev, run: true }) });
  };
  const pullNext = () => {
    if (mode === 'reread') {
      if (nextCursor) void navigate({ search: (prev) => ({ ...prev, run: true, cursor: nextCursor }) });
    } else pull();
  };
  const prefetchNext = useCallback(() => {
    if (nextCursor) void queryClient.prefetchQuery(rereadPageQuery(connection, { ...rereadParams, cursor: nextCursor }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the params are the URL's, named by rereadKey
  }, [nextCursor, queryClient, connection, rereadKey, search.limit]);
  const hasMore = mode === 'new' ? liveHasMore : mode === 'reread' ? (rereadPage?.data.hasMore ?? null) : null;
  const actions = useStableHandlers({
    pull,
    pullNext,
    retry: () => (mode === 'new' ? !refusal && incremental.mutate() : mode === 'reread' ? void reread.refetch() : void pending.refetch()),
    pullAll: () => void runLong('pull-all'),
    recover: () => void runLong('recover'),
  });
  const loading = incremental.isPending || reread.isFetching || pending.isFetching || task?.kind === 'pull-all';
  const error =
    (mode === 'new' ? incremental.error : mode === 'reread' ? (reread.error ?? rereadNotKept) : pending.error) ?? scopeError ?? stored.error ?? null;
  // A list from the store grows in place; a re-read page is a new page.
  const pageKey = mode === 'reread' ? (rereadPage?.key ?? rereadKey) : 'stored';
  const lastPull = incremental.data ?? null;
  // One object while nothing in it changed: the controls and notices that read it are memoised,
  // and a keypress changes none of it.
  return useMemo(
    () => ({
      mode,
      items,
      scope,
      stored,
      ...actions,
      prefetchNext,
      hasMore,
      nextCursor,
      loading,
      error,
      pageKey,
      sizeOk,
      losses,
      task,
      lastTask,
      lastPull,
      refusal,
    }),
    [mode, items, scope, stored, actions, prefetchNext, hasMore, nextCursor, loading, error, pageKey, sizeOk, losses, task, lastTask, lastPull, refusal],
  );
}

export type ReviewSource = ReturnType<typeof useReviewSource>;

/** What `promise` was rejected with, once it was (null before, and while it holds or was fulfilled). */
function useRejection(promise: Promise<unknown> | undefined): unknown {
  const [rejected, setRejected] = useState<{ promise: Promise<unknown>; error: unknown } | null>(null);
  useEffect(() => {
    if (!promise) return;
    let current = true;
    promise.catch((error: unknown) => current && setRejected({ promise, error }));
    return () => {
      current = false;
    };
  }, [promise]);
  return rejected && rejected.promise === promise ? rejected.error : null;
}
