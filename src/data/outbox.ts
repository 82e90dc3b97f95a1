import { createContext, use, useContext } from 'react';
import type { OutboxEngine } from '../domain/outbox/engine';
import type { NewDecision, OutboxEntry } from '../domain/outbox/model';

/**
 * The decision outbox as the UI uses it: by connection id, resolved to the connection's scope
 * (docs/architecture.md, "Words"). The app creates it (src/app/outbox.ts) and hands it down through
 * `OutboxContext`, so features read and decide without importing the outbox feature or its engine.
 */
export interface Outbox {
  subscribe: OutboxEngine['subscribe'];
  /** As `subscribe`, told once the frame after a change has painted (once per frame for all such listeners). */
  subscribeAfterPaint: OutboxEngine['subscribe'];
  getSnapshot: OutboxEngine['getSnapshot'];
  pump(): void;
  /** This tab (page load): a visit's spend is what it cleared. */
  tab: string;
  enqueue(connectionId: string, decision: NewDecision, group?: string): OutboxEntry;
  /** Records many decisions at once, as one group when given (one write, one undo); skipped ones name the decision that stands. */
  enqueueMany(connectionId: string, decisions: readonly NewDecision[], group?: string): ReturnType<OutboxEngine['enqueueMany']>;
  /** Resolves once everything recorded so far is written to this device (false when a write failed). */
  whenWritten(): Promise<boolean>;
  holdGroup(connectionId: string, group: string): number;
  releaseGroup(connectionId: string, group: string): number;
  cancelGroup(connectionId: string, group: string): number;
  undoGroup(connectionId: string, group: string): OutboxEntry[];
  undoLast(connectionId: string): OutboxEntry | null;
  undoLatest(connectionId: string): OutboxEntry[];
  undo(connectionId: string, entryId: string): boolean;
  retry(connectionId: string, entryId: string): void;
  confirm(connectionId: string, entryIds: readonly string[]): void;
  /** Sends decisions a budget held, past their limit (after the user confirmed their total); returns how many. */
  releaseBudget(connectionId: string, entryIds: readonly string[]): number;
  discard(connectionId: string, entryIds: readonly string[]): void;
  isDiscardable(connectionId: string, entry: OutboxEntry): boolean;
  sendNow(connectionId: string): void;
  discardAll(connectionId: string): void;
  isPaused(connectionId: string): string | null;
  retryWrites(): void;
  /** After the connection's local data was deleted: forget its decisions in memory too. */
  forget(connectionId: string): void;
  /** On Disconnect: the error texts of the connection's decisions go (they are a server's words). */
  clearErrors(connectionId: string): Promise<void>;
}

/**
 * The outbox, created on first use: its engine and the local store it writes to (Dexie) are not on
 * the first page. `current` is set once `load()` resolved; `load()` returns the same promise each time
 * (`outboxHandle` below).
 */
export interface OutboxHandle {
  readonly current: Outbox | null;
  load(): Promise<Outbox>;
}

/**
 * A handle that creates the outbox on the first `load()` and keeps it: the same promise every time,
 * marked as React's `use` reads a settled one (`status`, `value`) just before it resolves, so a
 * component that mounts once it is loaded gets it in that render instead of suspending once more.
 */
export function outboxHandle(create: () => Promise<Outbox>): OutboxHandle {
  let current: Outbox | null = null;
  let loading: Promise<Outbox> | null = null;
  return {
    get current() {
      return current;
    },
    load() {
      loading ??= create().then((outbox) => {
        current = outbox;
        Object.assign(loading!, { status: 'fulfilled', value: outbox });
        return outbox;
      });
      return loading;
    },
  };
}

export const OutboxContext = createContext<OutboxHandle | null>(null);

/** The outbox the app provides; suspends the component until it is loaded (route loaders load it first). */
export function useOutbox(): Outbox {
  const handle = useContext(OutboxContext);
  if (!handle) throw new Error('useOutbox needs the OutboxContext the app provides');
  // `use` on every render, never only while `current` is null: a render that suspended here is
  // replayed once the load resolves, and a replay that skipped `use` then ran its next hook as an
  // update on a component never mounted (React #467, "Update hook called on initial render", seen
  // as #520 in the header's decisions status). Once loaded, `use` returns at once (the promise is marked).
  return use(handle.load());
}
