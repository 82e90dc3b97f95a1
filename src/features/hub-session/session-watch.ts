import { useEffect } from 'react';
import { ApiError } from '../../api/errors';
import { hubApi } from '../../api/hub';
import { connectionStore, type HubMode } from '../../data';

/** The sign-in page's address for a member whose session ended here, keeping their place. */
export function signInAgainHref(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  const params = new URLSearchParams({ ended: '1' });
  if (here.startsWith('/') && !here.startsWith('/sign-in')) params.set('redirect', here);
  return `/sign-in?${params.toString()}`;
}

/**
 * In hub mode, a 401 on the hub's connection (any query, mutation or outbox send marks it refused,
 * src/app/query-client.ts and src/app/outbox.ts) is asked about once: if the hub no longer knows
 * the session (signed out elsewhere, expired, the member removed), the member is sent to sign in
 * with their place kept; the outbox keeps its unsent decisions in IndexedDB meanwhile. Another
 * member signed in now (MEMBER_CHANGED): the page starts again as them. A 401 that was the vendor's
 * (the hub's vendor key refused) stays the usual banner.
 */
export function useHubSessionWatch(hub: HubMode | null): void {
  useEffect(() => {
    if (!hub?.member) return;
    const id = connectionStore.active?.id;
    if (!id) return;
    let asked = false;
    const check = () => {
      if (asked || !connectionStore.failureOf(id)) return;
      asked = true;
      hubApi(hub.origin)
        .me()
        .then(
          // Another member signed in in this browser (another tab): this page starts again as them; the
          // first member's unsent decisions stay in their outbox (refused, 401 MEMBER_CHANGED) for their next sign-in.
          (now) => {
            if (now.id !== hub.member?.id) window.location.reload();
          },
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 401) window.location.assign(signInAgainHref(window.location));
            else asked = false;
          },
        );
    };
    check();
    const unsubscribe = connectionStore.subscribe(check);
    return () => void unsubscribe();
  }, [hub]);
}
