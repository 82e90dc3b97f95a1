import { useEffect, useSyncExternalStore } from 'react';
import { outbox } from './instance';
import { PROBLEM_STATES, UNSENT_STATES, type OutboxEntry } from './model';

const EMPTY: readonly OutboxEntry[] = [];

export function useOutboxEntries(connectionId: string | undefined): readonly OutboxEntry[] {
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return connectionId ? (snapshot.entries[connectionId] ?? EMPTY) : EMPTY;
}

/** Decisions other open tabs recorded on this connection (shown, never sent here). */
export function useOtherTabsEntries(connectionId: string | undefined): readonly OutboxEntry[] {
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return connectionId ? (snapshot.others[connectionId] ?? EMPTY) : EMPTY;
}

export function useOutboxPaused(connectionId: string | undefined): string | null {
  const snapshot = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
  return connectionId ? (snapshot.paused[connectionId] ?? null) : null;
}

export function outboxCounts(entries: readonly OutboxEntry[]) {
  let unsent = 0;
  let problems = 0;
  for (const e of entries) {
    if (UNSENT_STATES.has(e.state)) unsent++;
    else if (PROBLEM_STATES.has(e.state)) problems++;
  }
  return { unsent, problems };
}

/** Every connection's unsent decisions, for the leave guard. */
export function useAllUnsent(): number {
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
