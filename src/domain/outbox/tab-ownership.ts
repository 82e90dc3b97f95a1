import { FINAL_STATES, type OutboxEntry } from './model';
import { resumed } from './scheduler';
import { isHubOwned } from './transitions';
import type { DecisionStore } from './store';
import type { TabRegistry } from './tabs';
import type { UnwrittenJournal } from './engine-types';

/**
 * Splits a scope's stored rows and this tab's memory after a read: this tab keeps its own
 * unfinished decisions and any change not yet written as memory holds them (an undo not yet
 * written must not come back); confirmed and discarded rows join the record; other tabs'
 * unfinished decisions are shown apart (`others`), never sent or undone here.
 */
export function splitRows(
  rows: readonly OutboxEntry[],
  memory: Iterable<OutboxEntry>,
  me: string,
  unwritten: (id: string) => boolean,
): { entries: OutboxEntry[]; others: OutboxEntry[] } {
  const kept: OutboxEntry[] = [];
  const keptIds = new Set<string>();
  for (const e of memory) {
    // A decision a team hub holds is changed by any tab (the hub's news, `settle`): its row is the truth.
    if (unwritten(e.id) || (e.owner === me && !FINAL_STATES.has(e.state) && !isHubOwned(e.state))) {
      kept.push(e);
      keptIds.add(e.id);
    }
  }
  const finals: OutboxEntry[] = [];
  const others: OutboxEntry[] = [];
  for (const row of rows) {
    if (keptIds.has(row.id) || unwritten(row.id)) continue;
    if (FINAL_STATES.has(row.state)) finals.push(row);
    else if (row.owner === me) kept.push(row);
    else others.push(row);
  }
  return { entries: [...finals, ...kept].sort((a, b) => a.createdAt - b.createdAt), others };
}

/**
 * A gone page's row as that page last knew it: its journal (written as it left) over what it had
 * written before, which may lack an answer still waiting for its batch's write, or carry an
 * in-flight mark taken ahead (`lease`) for a decision the page never sent. Claimed rows are still
 * that page's, so nothing but the hub's news (a held adopt, settled by any tab) can have changed them since.
 */
export function lastWord(row: OutboxEntry, left: OutboxEntry | undefined): OutboxEntry {
  return left && !isHubOwned(row.state) ? { ...left, scope: row.scope, owner: row.owner } : row;
}

export interface TabOwnershipDeps {
  tabs: TabRegistry;
  store: Pick<DecisionStore, 'claim'>;
  now: () => number;
  /** Whether this tab can send a scope's decisions now: one that cannot leaves a closed tab's decisions to one that can. */
  canSend?: (scope: string) => boolean;
  /** Whether a scope's charged decisions taken over are sent without asking again (scheduler.ts, `resumed`). */
  resumesCharged?: (scope: string) => boolean;
  /** What pages journaled as they left (engine-types.ts): a gone tab's last word on its own rows. */
  left?: Pick<UnwrittenJournal, 'read' | 'drop'>;
  /** Reads a scope again (rows, memory and `others`); `sync` runs it one at a time. */
  read: (scope: string) => Promise<void>;
  /** Decisions this tab took over (already written by the claim). */
  taken: (scope: string, taken: readonly OutboxEntry[]) => void;
  fail: (error: unknown) => void;
}

/**
 * Tab ownership: a decision belongs to the tab that recorded it; another tab's decisions are
 * watched, and taken over (`claim`: exactly one tab gets each) once that tab is gone. A scope is
 * read again whenever another tab announces a change.
 */
export class TabOwnership {
  /** "<scope> <tab>" pairs whose tab this one waits on to take over its decisions. */
  private readonly watching = new Set<string>();
  /** Reads of a scope: one running, at most one waiting (a burst of announcements costs two reads, not one each). */
  private readonly reads = new Map<string, { running: Promise<void> | null; queued: Promise<void> | null }>();

  constructor(private readonly deps: TabOwnershipDeps) {
    deps.tabs.onAnnounce((scope) => void this.sync(scope).catch((error: unknown) => deps.fail(error)));
  }

  /** Reads a scope again; calls while a read runs share one read after it. */
  sync(scope: string): Promise<void> {
    let reads = this.reads.get(scope);
    if (!reads) this.reads.set(scope, (reads = { running: null, queued: null }));
    const r = reads;
    if (r.queued) return r.queued;
    const start = (): Promise<void> => {
      const run: Promise<void> = this.deps.read(scope).finally(() => {
        if (r.running === run) r.running = null;
      });
      r.running = run;
      return run;
    };
    if (!r.running) return start();
    r.queued = r.running
      .catch(() => undefined)
      .then(() => {
        r.queued = null;
        return start();
      });
    return r.queued;
  }

  /**
   * Takes over each other tab's decisions once that tab is gone. Resolves once each newly watched
   * tab is known open, or is gone and its decisions are taken over: after a reload, the page before
   * is gone, and until its decisions are taken over they would show as another tab's. The page
   * before in this tab counts only once its decisions are taken over: right after a reload the
   * connection may not be verified yet, and a takeover waits for one (the next read, on resume,
   * takes them over and resolves its own watch).
   */
  watch(scope: string, owners: Iterable<string | undefined>): Promise<void> {
    const settled: Promise<void>[] = [];
    for (const owner of owners) {
      const watch = `${scope} ${owner ?? ''}`;
      if (this.watching.has(watch)) continue;
      this.watching.add(watch);
      let takenOver: () => void = () => undefined;
      const over = new Promise<void>((resolve) => (takenOver = resolve));
      const successor = owner !== undefined && owner === this.deps.tabs.pageBefore;
      this.deps.tabs.whenGone(owner, () => {
        this.watching.delete(watch);
        void this.takeOver(scope, owner).then((claimed) => (claimed || !successor) && takenOver());
      });
      const { isOpen } = this.deps.tabs;
      if (isOpen) settled.push(isOpen.call(this.deps.tabs, owner).then((open) => (open ? undefined : over)));
    }
    return Promise.all(settled).then(() => undefined);
  }

  /** Whether it took them over (false when this tab cannot send for the scope, or the claim failed). */
  private async takeOver(scope: string, gone: string | undefined): Promise<boolean> {
    const { canSend, store, tabs } = this.deps;
    // Not watched any more: the next read of the scope (a broadcast, a resume) tries again.
    if (canSend && !canSend(scope)) return false;
    try {
      const sendCharged = this.deps.resumesCharged?.(scope) ?? false;
      const left = new Map((gone === undefined ? [] : (this.deps.left?.read(scope) ?? [])).filter((e) => e.owner === gone).map((e) => [e.id, e]));
      const taken = await store.claim(scope, gone, (row) => resumed(lastWord(row, left.get(row.id)), tabs.id, this.deps.now(), 'take-over', sendCharged));
      if (left.size) this.deps.left?.drop(scope, new Set(left.keys()));
      if (taken.length) this.deps.taken(scope, taken);
      return true;
    } catch (error) {
      this.deps.fail(error);
      return false;
    }
  }
}
