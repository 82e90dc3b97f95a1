import type { QueryClient } from '@tanstack/react-query';
import type { HubChangeEvent } from '../api/contract/hub-events';

/**
 * Hub mode's change stream, as the rest of the console reads it: whether the stream is live (then
 * the polls that only look for colleagues' changes stop: the stream says when to read) and the
 * last change seen. Kept in the query client (src/app/live-stream.ts writes it), so nothing lives
 * in a module and a test's client starts with none.
 */
export const HUB_LIVE_KEY = ['hub-live'] as const;

export interface HubLive {
  /** `live`: the stream is open; `connecting`: being opened or re-opened; `polling`: it cannot be, the polls run. */
  state: 'connecting' | 'live' | 'polling';
  /** The newest change from another member (or this one), for the header. */
  last: HubChangeEvent | null;
  /**
   * The seq of the newest lease change (a take, a release, a take-back), for the review's batch:
   * `last` alone can miss one, when a later change arrives before the page renders.
   */
  leaseSeq?: number;
}

export const hubLive = (queryClient: QueryClient): HubLive | undefined => queryClient.getQueryData<HubLive>(HUB_LIVE_KEY);

/** A poll interval that stops while the stream is live: `refetchInterval: pollUnlessLive(queryClient, ms)`. */
export const pollUnlessLive = (queryClient: QueryClient, ms: number) => () => (hubLive(queryClient)?.state === 'live' ? false : ms);
