import type { QueryClient } from '@tanstack/react-query';
import { hubChangeEvent, hubStreamMark, type HubChangeEvent } from '../api/contract/hub-events';
import { HUB_LIVE_KEY, type HubLive } from '../data';
import { queryRefreshers, refreshesFor, type LiveRefresh, type LiveRefreshers } from './live-refresh';
import { requestTeamInboxSync } from './team-inbox-request';

/**
 * Hub mode: one EventSource on the hub's change stream (`GET /hub/v1/events`, docs/hub.md), for
 * the whole page. Each change calls the refreshes `live-refresh.ts` maps it to; while the stream
 * is live the polls that only look for colleagues' changes stop (`pollUnlessLive`). The browser
 * reconnects by itself with Last-Event-ID (the hub resumes from it); a stream that cannot be
 * opened (an answer that is not a stream, a proxy that buffers) leaves the polls running and is
 * tried again, with `?after=` the last seq seen, after a growing pause.
 */
export interface HubLiveDeps {
  origin: string;
  queryClient: QueryClient;
  /** Refreshes beyond the hub's queries and the team inbox's sync (the holds watcher). */
  refreshers?: LiveRefreshers;
  /** Tests: instead of the browser's. */
  EventSource?: typeof EventSource;
}

const RETRY_MS = { first: 2_000, max: 60_000 };

export interface HubLiveHandle {
  stop: () => void;
}

export function startHubLive({ origin, queryClient, refreshers = {}, EventSource: Source = EventSource }: HubLiveDeps): HubLiveHandle {
  queryClient.setQueryDefaults(HUB_LIVE_KEY, { staleTime: Infinity, gcTime: Infinity });
  const set = (patch: Partial<HubLive>) => {
    const now = queryClient.getQueryData<HubLive>(HUB_LIVE_KEY) ?? { state: 'connecting', last: null };
    queryClient.setQueryData<HubLive>(HUB_LIVE_KEY, { ...now, ...patch });
  };
  // The team inbox's sync reads new items (and the decisions with them), or the decisions only (src/app/team-inbox-sync.ts).
  const syncs: LiveRefreshers = { inbox: () => requestTeamInboxSync(), decisions: () => requestTeamInboxSync(undefined, 'decisions') };
  const tables: readonly LiveRefreshers[] = [queryRefreshers(queryClient), syncs, refreshers];
  const run = (kinds: Iterable<LiveRefresh>) => {
    for (const kind of kinds) for (const table of tables) table[kind]?.();
  };
  const everything: LiveRefresh[] = ['lots', 'holds', 'budgets', 'settings', 'team', 'audit', 'inbox', 'leases', 'votes'];

  let source: EventSource | null = null;
  let lastSeq: string | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let delay = RETRY_MS.first;
  let stopped = false;
  /** Whether the stream was live before: a `ready` after a break reads everything that may have been missed between. */
  let wasLive = false;

  const open = () => {
    if (stopped) return;
    set({ state: 'connecting' });
    const url = `${origin}/hub/v1/events${lastSeq === null ? '' : `?after=${encodeURIComponent(lastSeq)}`}`;
    const current = new Source(url);
    source = current;
    current.addEventListener('ready', (message) => {
      const mark = hubStreamMark.safeParse(safeJson((message as MessageEvent<string>).data));
      if (!mark.success) return;
      lastSeq = String(mark.data.head);
      delay = RETRY_MS.first;
      set({ state: 'live' });
      // The polls stopped while live: a reconnection's own replay (Last-Event-ID) covers the gap.
      // A first stream starts at the head: the team inbox is read once more, for what arrived
      // between the page's first read and now (its interval reads nothing while live).
      if (!wasLive) syncs.inbox?.();
      wasLive = true;
    });
    current.addEventListener('reset', (message) => {
      const mark = hubStreamMark.safeParse(safeJson((message as MessageEvent<string>).data));
      if (mark.success) lastSeq = String(mark.data.head);
      set({ state: 'live' });
      // More was missed than the hub replays: everything is read again.
      run(everything);
    });
    current.addEventListener('change', (message) => {
      const event = hubChangeEvent.safeParse(safeJson((message as MessageEvent<string>).data));
      if (!event.success) return;
      lastSeq = String(event.data.seq);
      // The vendor taking a decision follows the adopt the header already named: it says nothing new.
      // A lease change also notes its seq, in the same write (the review's batch asks about it).
      const lease = event.data.action.startsWith('lease.') ? { leaseSeq: event.data.seq } : {};
      if (!(event.data.action === 'decision.send' && event.data.outcome === 'ok')) set({ last: event.data satisfies HubChangeEvent, ...lease });
      run(refreshesFor(event.data));
    });
    current.onerror = () => {
      if (current.readyState === Source.CONNECTING) {
        // The browser reconnects by itself (Last-Event-ID); the polls run meanwhile.
        set({ state: 'connecting' });
        return;
      }
      // Closed for good (not a stream: a 401, a 503, a proxy): poll, and try again later.
      current.close();
      source = null;
      set({ state: 'polling' });
      if (wasLive) run(everything);
      wasLive = false;
      retry = setTimeout(() => {
        retry = null;
        open();
      }, delay);
      delay = Math.min(delay * 2, RETRY_MS.max);
    };
  };
  open();

  return {
    stop() {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
