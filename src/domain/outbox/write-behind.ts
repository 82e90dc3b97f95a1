import type { OutboxEntry } from './model';
import type { DecisionStore } from './store';

/**
 * Whether a change is written: at once, with the next batch of a stream's answers ('soon'), with
 * the next batch without holding the entry back from sending ('lazy'), or not (memory only).
 */
export type Write = boolean | 'soon' | 'lazy';
const WRITE_BATCH_MS = 100;

export interface WriteBehindDeps {
  store: Pick<DecisionStore, 'write'>;
  /** The entry as memory holds it now; undefined: it was removed (its row is deleted). */
  current: (scope: string, id: string) => OutboxEntry | undefined;
  /** While true (a write failed and the user has not asked again), nothing is written. */
  blocked: () => boolean;
  /** A batch committed: the scopes it wrote. */
  written: (scopes: ReadonlySet<string>) => void;
  fail: (error: unknown) => void;
  /** Runs `fn` after the next paint (a recorded decision's write waits there); without it, at once. */
  afterPaint?: (fn: () => void) => void;
}

/**
 * Write-behind: memory changes first, and every changed entry is marked; a flush writes the
 * current state of every marked entry in one transaction, and clears only the marks unchanged
 * during the write, so a change made while a write is in flight is written by the next one.
 * Writes are chained (never two transactions at once); the answers of a stream are batched.
 */
export class WriteBehind {
  /** Entries whose latest state is not yet committed (id -> change mark); `holds`: not sendable before it is. */
  private readonly marks = new Map<string, { scope: string; holds: boolean }>();
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  private soonTimer: ReturnType<typeof setTimeout> | null = null;
  /** Work a recorded decision left for after the paint (`afterPaint`), run in order. */
  private deferred: (() => void)[] = [];
  /** While set, flushes asked for are left for after the paint (a decision being recorded). */
  private deferring = false;

  constructor(private readonly deps: WriteBehindDeps) {}

  /** Marks a changed entry for writing (`write` not false). */
  mark(scope: string, id: string, write: Exclude<Write, false>): void {
    // A write the entry waits for stays one until it is done, whatever is recorded after it.
    if (write !== 'lazy' || !this.marks.get(id)?.holds) this.marks.set(id, { scope, holds: write !== 'lazy' });
    if (write === true) this.request();
    else this.requestSoon();
  }

  /** Marks a removed entry: its row is deleted by the next write, which it is held for. */
  markRemoved(scope: string, id: string): void {
    this.marks.set(id, { scope, holds: true });
    this.request();
  }

  /** Whether an entry has a change not yet written (of any kind). */
  readonly has = (id: string): boolean => this.marks.has(id);
  /** Whether an entry's latest state that it must not be sent without is still unwritten. */
  readonly unwritten = (id: string): boolean => this.marks.get(id)?.holds === true;

  /** The marked entries (scope and id): their latest state is not committed yet. */
  marked(): { scope: string; id: string }[] {
    return [...this.marks].map(([id, { scope }]) => ({ scope, id }));
  }

  /** Drops a scope's marks (its local data was deleted: nothing is written). */
  forget(scope: string): void {
    for (const [id, mark] of this.marks) if (mark.scope === scope) this.marks.delete(id);
  }

  /** Resolves once the writes asked for so far have run (committed or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Runs what waits for a paint, writes what waits for a batch, and resolves once all of it ran. */
  async flushNow(): Promise<void> {
    this.runDeferred();
    if (this.soonTimer) this.request();
    await this.chain;
  }

  /** Runs `fn` with flushes left for after the paint. */
  deferWhile(fn: () => void): void {
    this.deferring = true;
    try {
      fn();
    } finally {
      this.deferring = false;
    }
  }

  /** Runs `fn` after the next paint (`afterPaint`), or at once without one. */
  later(fn: () => void): void {
    if (!this.deps.afterPaint) return fn();
    this.deferred.push(fn);
    if (this.deferred.length === 1) this.deps.afterPaint(this.runDeferred);
  }

  /** Runs what was left for after the paint now (also when the page is hidden or closed). */
  readonly runDeferred = (): void => {
    const work = this.deferred;
    this.deferred = [];
    for (const fn of work) fn();
  };

  /** Asks for a write of every marked entry, after the one running. */
  request(): void {
    if (this.deferring && this.deps.afterPaint) {
      this.later(() => this.request());
      return;
    }
    if (this.soonTimer) clearTimeout(this.soonTimer);
    this.soonTimer = null;
    if (this.queued) return;
    this.queued = true;
    this.chain = this.chain.then(() => {
      this.queued = false;
      return this.flush();
    });
  }

  /**
   * The answers of a stream are written together, a few times a second rather than once or twice
   * per answer: each transaction costs the page a few milliseconds however small. A lost write
   * of a confirmation only means a repeat the service takes as a no-op.
   */
  private requestSoon(): void {
    if (this.queued || this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      this.request();
    }, WRITE_BATCH_MS);
  }

  /** Writes the current state of every marked entry in one transaction; an entry changed again meanwhile stays marked. */
  private async flush(): Promise<void> {
    if (this.marks.size === 0 || this.deps.blocked()) return;
    const batch = [...this.marks.entries()];
    const puts: OutboxEntry[] = [];
    const deletes: string[] = [];
    for (const [id, { scope }] of batch) {
      const current = this.deps.current(scope, id);
      if (current) puts.push(current);
      else deletes.push(id);
    }
    try {
      await this.deps.store.write(puts, deletes);
    } catch (error) {
      this.deps.fail(error);
      return;
    }
    for (const [id, mark] of batch) if (this.marks.get(id) === mark) this.marks.delete(id);
    this.deps.written(new Set(batch.map(([, mark]) => mark.scope)));
  }
}
