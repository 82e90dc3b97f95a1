import { skipToken, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { NetworkError } from '../../../api/errors';
import { decideRefusal, HUB_LIVE_KEY, useLocalScope, type Connection, type ConnectionSubscription, type HubLive } from '../../../data';
import { localDb, readSetting, saveDelivered, writeSetting } from '../../../domain/store';
import { batchSettingName, deliveredOf, filtersKeyOf, parseBatch, queueApi, queueFiltersOf, RENEW_MS, toTeamBatch, type TeamBatch } from '../team-batch';
import type { ReviewSearch } from '../search';

export interface TeamBatchState {
  /** undefined while the stored batch is read; null when the reviewer holds none. */
  batch: TeamBatch | null | undefined;
  /** The batch's item IDs (the review lists these), null while unknown. */
  ids: ReadonlySet<string> | null;
  /** Why this member may not take a batch (a viewer), or null. */
  refusal: string | null;
  busy: boolean;
  error: unknown;
  /** The last take found nothing free under these filters. */
  empty: boolean;
  /** The hub could not be reached at the last try: the batch and the decisions are kept here. */
  offline: boolean;
  take: () => void;
  release: () => void;
}

/** Activity that keeps a lease: a key or a pointer in the page. */
const ACTIVITY = ['keydown', 'pointerdown'] as const;
const CHECK_MS = 5_000;

/**
 * The reviewer's batch from the team queue: read from the store (a reload or a lost network keeps
 * it), else taken at once under the items view's filters; renewed while the reviewer works (the
 * tab visible and a key or click since the last renewal, at most every RENEW_MS, and at once on
 * coming back online); released on request. A renewal tells which items were lost (taken back by
 * an admin, or expired and leased again): they stay listed, marked, and decisions on them wait in
 * the outbox, where the hub's answer (409 ITEM_LEASED, or the team's decision) shows as a conflict.
 */
export function useTeamBatch(connection: Connection, subscription: ConnectionSubscription, search: ReviewSearch): TeamBatchState {
  const { scope } = useLocalScope(connection);
  const refusal = decideRefusal(connection) ? 'A viewer cannot take a batch: reviewers and admins do.' : null;
  const [batch, setBatch] = useState<TeamBatch | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [empty, setEmpty] = useState(false);
  const [offline, setOffline] = useState(false);
  const filters = useMemo(() => queueFiltersOf(search), [search]);
  const filtersKey = filtersKeyOf(filters);
  const size = search.batch;
  const subscriptionId = subscription.id;
  const kind = subscription.kind;

  // The batch as last set, at once: a renewal answered before the next render must not build on
  // (and bring back) a batch this hook has let go or replaced since.
  const batchRef = useRef(batch);
  useLayoutEffect(() => {
    batchRef.current = batch;
  }, [batch]);
  const keep = useCallback(
    async (next: TeamBatch | null) => {
      batchRef.current = next;
      setBatch(next);
      if (scope) await writeSetting(scope, batchSettingName(subscriptionId), next);
    },
    [scope, subscriptionId],
  );
  const failed = (e: unknown) => {
    setOffline(e instanceof NetworkError);
    if (!(e instanceof NetworkError)) setError(e);
  };

  // One take at a time: a second (a key, the store growing) while one is on its way would lease another batch.
  const taking = useRef(false);
  // The filters of the last take asked for (an empty queue under them, then other filters: asked again).
  const askedUnder = useRef<string | null>(null);
  const take = useCallback(() => {
    if (!scope || refusal || taking.current) return;
    taking.current = true;
    askedUnder.current = filtersKey;
    setBusy(true);
    setError(null);
    const asked = JSON.parse(filtersKey) as typeof filters;
    queueApi
      .take(subscriptionId, size, asked)
      .then(async (taken) => {
        setOffline(false);
        setEmpty(taken.items.length === 0);
        // The items go into the store before they are listed (the inbox's sync may not have them yet).
        const store = await import('../../../domain/store');
        const delivered = deliveredOf(taken, kind === 'live' ? 'live' : 'simulated', store);
        if (delivered.length) await saveDelivered(localDb(), scope, subscriptionId, kind === 'live' ? 'incremental' : 'pending', delivered);
        await keep(taken.items.length ? toTeamBatch(taken, asked) : null);
      })
      .catch(failed)
      .finally(() => {
        taking.current = false;
        setBusy(false);
      });
  }, [scope, refusal, subscriptionId, size, filtersKey, kind, keep]);

  const release = useCallback(() => {
    if (!batch) return;
    setBusy(true);
    setError(null);
    queueApi
      .release(batch.batchId)
      .then(() => {
        setOffline(false);
        setEmpty(false);
        return keep(null);
      })
      .catch(failed)
      .finally(() => setBusy(false));
  }, [batch, keep]);

  // The stored batch first; with none, the next one is taken at once (a viewer takes none).
  const started = useRef(false);
  useEffect(() => {
    if (!scope || started.current) return;
    started.current = true;
    void readSetting(scope, batchSettingName(subscriptionId), parseBatch).then(
      (stored) => {
        batchRef.current = stored;
        setBatch(stored);
        if (!stored) take();
      },
      () => {
        batchRef.current = null;
        setBatch(null);
      },
    );
  }, [scope, subscriptionId, take]);

  // Other filters in the URL than the batch was taken under (the reviewer narrowed the review, or
  // opened a link): the batch is let go and the next taken under these, so the list is what the
  // filters say. Decisions already made on its items stay in the outbox and are sent as any other.
  const swapping = useRef<string | null>(null);
  useEffect(() => {
    if (refusal) return;
    if (batch === null && askedUnder.current !== null && askedUnder.current !== filtersKey) take();
    if (!batch || batch.filters === filtersKey || swapping.current === batch.batchId) return;
    swapping.current = batch.batchId;
    setBusy(true);
    setError(null);
    queueApi.release(batch.batchId).then(
      async () => {
        await keep(null);
        setBusy(false);
        take();
      },
      async (e: unknown) => {
        setBusy(false);
        // Offline: the batch is kept and the swap tried again at its next change (a renewal once back online).
        if (e instanceof NetworkError) {
          swapping.current = null;
          setOffline(true);
          return;
        }
        // A batch the hub no longer knows (expired, released elsewhere): nothing to let go.
        await keep(null);
        take();
      },
    );
  }, [batch, filtersKey, refusal, keep, take]);

  // Renewal: throttled, and only for a reviewer at work (a hidden or idle tab lets the lease run out, as the queue intends).
  const renewedAt = useRef(0);
  const active = useRef(true);
  const renew = useCallback(() => {
    const current = batchRef.current;
    if (!current) return;
    renewedAt.current = Date.now();
    active.current = false;
    queueApi.renew(current.batchId).then(
      (r) => {
        setOffline(false);
        const latest = batchRef.current;
        if (latest?.batchId !== r.batch_id) return;
        const lost = r.lost.map((i) => i.item_id);
        const next = {
          ...latest,
          expiresAt: r.expires_at ?? latest.expiresAt,
          lost: [...new Set([...latest.lost, ...lost])],
          renewedAt: new Date().toISOString(),
        };
        // At once, not at the next render: a second answer arriving before it builds on this one (else its lost items are dropped).
        batchRef.current = next;
        void keep(next);
      },
      (e: unknown) => {
        // A batch the hub no longer knows (404) is lost whole; anything else is tried at the next round.
        setOffline(e instanceof NetworkError);
      },
    );
  }, [keep]);
  const batchId = batch?.batchId;
  // A short idle time (5 s at the least) is renewed at half of it, so a working reviewer never loses it between renewals.
  const every = Math.min(RENEW_MS, ((batch?.idleSeconds ?? 600) * 1000) / 2);
  useEffect(() => {
    if (!batchId) return;
    renew(); // at once: after a reload or a return, what is still held
    const mark = () => (active.current = true);
    const tick = () => {
      if (document.visibilityState === 'visible' && active.current && Date.now() - renewedAt.current >= every) renew();
    };
    for (const type of ACTIVITY) window.addEventListener(type, mark, true);
    window.addEventListener('online', renew);
    const timer = setInterval(tick, Math.min(CHECK_MS, every / 2));
    return () => {
      for (const type of ACTIVITY) window.removeEventListener(type, mark, true);
      window.removeEventListener('online', renew);
      clearInterval(timer);
    };
  }, [batchId, renew, every]);

  // A teammate's or an admin's lease change on the change stream (a take-back, a take after an
  // expiry) is asked about at once: the holder learns what they lost within the stream's second,
  // not at the next renewal, which an idle tab never makes.
  const live = useQuery<HubLive>({ queryKey: HUB_LIVE_KEY, queryFn: skipToken }).data;
  const leaseChange = live?.leaseSeq ?? null;
  const leaseChangeSeen = useRef<typeof leaseChange>(null);
  useEffect(() => {
    if (leaseChange === null || leaseChange === leaseChangeSeen.current) return;
    leaseChangeSeen.current = leaseChange;
    if (batchRef.current) renew();
  }, [leaseChange, renew]);

  const ids = useMemo(() => (batch === undefined ? null : new Set(batch?.itemIds ?? [])), [batch]);
  return { batch, ids, refusal, busy, error, empty, offline, take, release };
}
