import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { clientFor, type Connection, type ConnectionSubscription } from '../../connections';
import { appendPull, useIncrementalSession } from '../incremental-session';
import { fromLive, fromSimulated, type ReviewItem } from '../model';
import { pendingItemsQuery, rereadPageQuery } from '../queries';
import { pageSizeError, type ReviewSearch } from '../search';

export interface ReviewSourceProps {
  connection: Connection;
  subscription: ConnectionSubscription;
  search: ReviewSearch;
}

/** Where the page's items come from, by subscription kind and mode. */
export function useReviewSource({ connection, subscription, search }: ReviewSourceProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const live = subscription.kind === 'live';
  const mode = live ? search.mode : 'pending';
  const session = useIncrementalSession(connection.id, subscription.id);
  // An invalid page size is never sent (the pull controls say why).
  const sizeOk = pageSizeError(search.limit) === null;

  const incremental = useMutation({
    mutationFn: () => clientFor(connection).pullLive({ subscription_id: subscription.id, limit: search.limit }),
    onSuccess: (page) => appendPull(connection.id, subscription.id, page),
    meta: { connectionId: connection.id },
  });
  const rereadParams = { subscriptionId: subscription.id, cursor: search.cursor, tasks: search.tasks, campaigns: search.campaigns, limit: search.limit };
  const rereadKey = `reread:${search.cursor ?? ''}:${search.tasks ?? ''}:${search.campaigns ?? ''}`;
  // While the next page loads, the current one stays on screen (no skeleton).
  const reread = useQuery({ ...rereadPageQuery(connection, rereadParams), enabled: mode === 'reread' && !!search.run && sizeOk, placeholderData: keepPreviousData });
  const pending = useQuery({ ...pendingItemsQuery(connection, subscription.id, search.limit), enabled: mode === 'pending' && !!search.run && sizeOk });

  // The last re-read page that arrived, and which page it is: when the next one fails, it stays
  // on screen beside the error instead of an empty list.
  const [shownPage, setShownPage] = useState<{ key: string; data: NonNullable<typeof reread.data> } | null>(null);
  if (reread.data && !reread.isPlaceholderData && (shownPage?.key !== rereadKey || shownPage.data !== reread.data)) setShownPage({ key: rereadKey, data: reread.data });
  const freshPage = reread.data && !reread.isPlaceholderData ? reread.data : null;
  const rereadPage = useMemo(() => (freshPage ? { key: rereadKey, data: freshPage } : shownPage), [freshPage, rereadKey, shownPage]);
  const rereadItems = rereadPage?.data.items;

  const items: ReviewItem[] = useMemo(() => {
    if (mode === 'new') return session.items.map((s) => fromLive(s, subscription.id));
    if (mode === 'reread') return (rereadItems ?? []).map((s) => fromLive(s, subscription.id));
    return (pending.data?.data ?? []).map((i) => fromSimulated(i, subscription.id));
  }, [mode, session.items, rereadItems, pending.data, subscription.id]);

  const nextCursor = mode === 'reread' ? (rereadPage?.data.nextCursor ?? null) : null;
  const pull = () => {
    if (!sizeOk) return;
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
  const prefetchNext = () => {
    if (nextCursor) void queryClient.prefetchQuery(rereadPageQuery(connection, { ...rereadParams, cursor: nextCursor }));
  };
  const hasMore = mode === 'new' ? session.hasMore : mode === 'reread' ? (rereadPage?.data.hasMore ?? null) : null;
  return {
    mode,
    items,
    pull,
    pullNext,
    prefetchNext,
    hasMore,
    nextCursor,
    loading: incremental.isPending || reread.isFetching || pending.isFetching,
    error: (mode === 'new' ? incremental.error : mode === 'reread' ? reread.error : pending.error) ?? null,
    retry: mode === 'new' ? () => incremental.mutate() : mode === 'reread' ? () => void reread.refetch() : () => void pending.refetch(),
    pageKey: mode === 'new' ? 'new' : mode === 'reread' ? (rereadPage?.key ?? rereadKey) : `pending:${pending.dataUpdatedAt}`,
    sizeOk,
    session,
  };
}

export type ReviewSource = ReturnType<typeof useReviewSource>;
