import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import type { OutboxEntry } from '../domain/outbox/model';
import { isHubOwned, isProblem, isUnsent, phaseOf } from '../domain/outbox/transitions';
import { useOutbox } from './outbox';
import { useConnection } from './use-connections';
import { useLocalScope } from './use-local-scope';

const EMPTY: readonly OutboxEntry[] = [];
const NONE: Readonly<Record<string, string>> = {};

/**
 * How a display follows the outbox. `now`: in the render that changed it (the header's status, which
 * must never say "All decisions saved" over a decision just made). `after-paint`: once the frame that
 * showed the change has been painted, as a transition a keypress interrupts. The review workspace
 * (its rows and counts; its card moves on ahead of it, focus-lead.ts) and the displays beside it (the
 * header's budget, notices, the visit's spend) follow a decision a frame later instead of
 * re-rendering, over every decision, inside the keypress that made it.
 */
export type OutboxFollow = 'now' | 'after-paint';

const noSubscription = () => () => undefined;

function useSnapshot(follow: OutboxFollow) {
  const outbox = useOutbox();
  const now = follow === 'now';
  const immediate = useSyncExternalStore(now ? outbox.subscribe : noSubscription, outbox.getSnapshot);
  const [painted, setPainted] = useState(outbox.getSnapshot);
  useEffect(() => {
    if (now) return;
    const catchUp = () => startTransition(() => setPainted(outbox.getSnapshot()));
    // A change between the render and this subscription is caught up as well.
    catchUp();
    return outbox.subscribeAfterPaint(catchUp);
  }, [outbox, now]);
  return now ? immediate : painted;
}

/** The outbox's snapshot and the scope of a connection's decisions (null until its organization is known). */
function useScoped(connectionId: string | undefined, follow: OutboxFollow = 'now') {
  const connection = useConnection(connectionId);
  const { scope } = useLocalScope(connection);
  const snapshot = useSnapshot(follow);
  return { scope, snapshot };
}

/** This tab's decisions on a connection's organization, and every confirmed or discarded one. */
export function useOutboxEntries(connectionId: string | undefined, follow?: OutboxFollow): readonly OutboxEntry[] {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope ? (snapshot.entries[scope] ?? EMPTY) : EMPTY;
}

/**
 * Whether this tab has read the connection's stored decisions: right after a page load, memory
 * does not yet hold what the page before left unsent. True without a known organization (nothing
 * can be stored before it is known).
 */
export function useOutboxLoaded(connectionId: string | undefined, follow?: OutboxFollow): boolean {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope === null || snapshot.loaded[scope] === true;
}

/** Whether an entry still waits in this browser: unsent, held by a budget here, or failed. */
const unsettled = (e: OutboxEntry) => isUnsent(e.state) || (phaseOf(e.state) === 'held' && !isHubOwned(e.state)) || isProblem(e.state);
/** Newest last: a decision just recorded is found first (a scan of every entry only when none waits: microseconds). */
function hasUnsettled(entries: readonly OutboxEntry[] | undefined): boolean {
  if (entries) for (let i = entries.length - 1; i >= 0; i--) if (unsettled(entries[i]!)) return true;
  return false;
}

/**
 * Whether this tab holds a decision of the connection's organization that is not settled (unsent,
 * held here or failed), told in the render that changed it, with the entries as they are now. A
 * display that follows the outbox after the paint (the header's status) reads it so as never to
 * say "All decisions saved" over a decision just recorded, while it re-renders inside a keypress
 * only when this answer changes (the first decision), not for every decision after it.
 */
export function useOutboxUnsettledNow(connectionId: string | undefined): { unsettled: boolean; entriesNow: () => readonly OutboxEntry[] } {
  const outbox = useOutbox();
  const { scope } = useLocalScope(useConnection(connectionId));
  const unsettledNow = useSyncExternalStore(outbox.subscribe, () => (scope ? hasUnsettled(outbox.getSnapshot().entries[scope]) : false));
  return { unsettled: unsettledNow, entriesNow: () => (scope ? (outbox.getSnapshot().entries[scope] ?? EMPTY) : EMPTY) };
}

/** Unfinished decisions other open tabs own on this organization (shown live, never sent here). */
export function useOtherTabsEntries(connectionId: string | undefined, follow?: OutboxFollow): readonly OutboxEntry[] {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope ? (snapshot.others[scope] ?? EMPTY) : EMPTY;
}

export function useOutboxPaused(connectionId: string | undefined, follow?: OutboxFollow): string | null {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope ? (snapshot.paused[scope] ?? null) : null;
}

/** Subscriptions whose decisions wait because the key may not use them (403), with the service's words. */
export function useOutboxPausedSubscriptions(connectionId: string | undefined, follow?: OutboxFollow): Readonly<Record<string, string>> {
  const { scope, snapshot } = useScoped(connectionId, follow);
  return scope ? (snapshot.pausedSubscriptions[scope] ?? NONE) : NONE;
}

/** A decision that could not be written to this device (nothing unwritten is sent). */
export function useOutboxWriteError(follow: OutboxFollow = 'now'): string | null {
  return useSnapshot(follow).writeError;
}

/**
 * Unsent decisions (those a budget holds apart: they wait for the user, kept on this device), held
 * ones (a team hub's apart: the hub keeps them, an admin releases them), and problems.
 */
export function outboxCounts(entries: readonly OutboxEntry[]) {
  let unsent = 0;
  let held = 0;
  let teamHeld = 0;
  let problems = 0;
  for (const e of entries) {
    if (phaseOf(e.state) === 'held' && isHubOwned(e.state)) teamHeld++;
    else if (phaseOf(e.state) === 'held') held++;
    else if (isUnsent(e.state)) unsent++;
    else if (isProblem(e.state)) problems++;
  }
  return { unsent, held, teamHeld, problems };
}

/** Asks before the tab closes or reloads while decisions of any organization are unsent in this tab. */
export function useLeaveGuard(): void {
  // The guard is set once the frame has painted: a decision is written to this device before then anyway.
  const snapshot = useSnapshot('after-paint');
  const unsent = Object.values(snapshot.entries).reduce((sum, entries) => sum + outboxCounts(entries).unsent, 0);
  useEffect(() => {
    if (unsent === 0) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsent]);
}
