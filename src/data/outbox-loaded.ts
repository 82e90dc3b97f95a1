import { useScoped, type OutboxFollow } from './outbox-hooks';

/**
 * Whether this tab has read the connection's stored decisions: right after a page load, memory
 * does not yet hold what the page before left unsent. True without a known organization (nothing
 * can be stored before it is known). A module of its own: only the header's status (a lazy chunk)
 * asks, so it stays off the first page.
 */
export function useOutboxLoaded(connectionId: string | undefined, follow?: OutboxFollow): boolean {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope === null || snapshot.loaded[scope] === true;
}
