import { useEffect, useSyncExternalStore } from 'react';
import { connectionStore } from '../../data';
import { outbox, scopeFor } from './instance';
import type { OutboxEntry } from '../../domain/outbox/model';
import { isProblem, isUnsent, phaseOf } from '../../domain/outbox/transitions';

const EMPTY: readonly OutboxEntry[] = [];
const NONE: Readonly<Record<string, string>> = {};

/** The scope a connection's decisions live under (changes once its organization is known). */
function useScope(connectionId: string | undefined): string | undefined {
  return useSyncExternalStore(connectionStore.subscribe, () => (connectionId ? scopeFor(connectionId) : undefined));
}

/** This tab's decisions on a connection's organization, and every confirmed or discarded one. */
export function useOutboxEntries(connectionId: string | undefined): readonly OutboxEntry[] {
  const scope = useScope(connectionId);
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return scope ? (snapshot.entries[scope] ?? EMPTY) : EMPTY;
}

/** Unfinished decisions other open tabs own on this organization (shown live, never sent here). */
export function useOtherTabsEntries(connectionId: string | undefined): readonly OutboxEntry[] {
  const scope = useScope(connectionId);
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return scope ? (snapshot.others[scope] ?? EMPTY) : EMPTY;
}

export function useOutboxPaused(connectionId: string | undefined): string | null {
  const scope = useScope(connectionId);
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return scope ? (snapshot.paused[scope] ?? null) : null;
}

/** Subscriptions whose decisions wait because the key may not use them (403), with the service's words. */
export function useOutboxPausedSubscriptions(connectionId: string | undefined): Readonly<Record<string, string>> {
  const scope = useScope(connectionId);
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return scope ? (snapshot.pausedSubscriptions[scope] ?? NONE) : NONE;
}

/** A decision that could not be written to this device (nothing unwritten is sent). */
export function useOutboxWriteError(): string | null {
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot).writeError;
}

/** Unsent decisions (those a budget holds apart: they wait for the user, kept on this device), held ones, and problems. */
export function outboxCounts(entries: readonly OutboxEntry[]) {
  let unsent = 0;
  let held = 0;
  let problems = 0;
  for (const e of entries) {
    if (phaseOf(e.state) === 'held') held++;
    else if (isUnsent(e.state)) unsent++;
    else if (isProblem(e.state)) problems++;
  }
  return { unsent, held, problems };
}

/** Every scope's unsent decisions of this tab, for the leave guard. */
function useAllUnsent(): number {
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return Object.values(snapshot.entries).reduce((sum, entries) => sum + outboxCounts(entries).unsent, 0);
}

/** Asks before the tab closes or reloads while decisions are unsent. */
export function useLeaveGuard(): void {
  const unsent = useAllUnsent();
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
