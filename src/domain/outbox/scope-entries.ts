import { isCharged, type OutboxEntry } from './model';

/**
 * One scope's decisions in this tab, indexed so that a change costs O(1) however many there
 * are: by id (in insertion order, the order they are sent in), by item (what stands on an item),
 * and the ids in their undo window and those waiting to be sent (all the scheduler scans, so a
 * 10,000-decision run is not rescanned on every answer). The array the UI reads is built on
 * demand, once per batch of changes, not once per change.
 */
export class ScopeEntries {
  private readonly byId = new Map<string, OutboxEntry>();
  private readonly byItem = new Map<string, Set<string>>();
  /** Ids in their undo window. */
  readonly grace = new Set<string>();
  /** Ids queued and not held, in the order they became due. */
  readonly queue = new Set<string>();
  /** Ids 'sending': on the wire from this tab, or left by a page that went, until their in-flight mark passes. */
  readonly sending = new Set<string>();
  /** Ids queued, not held, charged and not yet past the budget gate (all the gate scans: live runs never touch it). */
  readonly ungated = new Set<string>();
  private list: readonly OutboxEntry[] | null = null;

  constructor(entries: Iterable<OutboxEntry> = []) {
    for (const entry of entries) this.put(entry);
  }

  get(id: string): OutboxEntry | undefined {
    return this.byId.get(id);
  }
  values(): IterableIterator<OutboxEntry> {
    return this.byId.values();
  }

  /** The entries of one item (few: an item is decided once, or again after an undo or a failure). */
  onItem(itemId: string): OutboxEntry[] {
    const ids = this.byItem.get(itemId);
    if (!ids) return [];
    const found: OutboxEntry[] = [];
    for (const id of ids) found.push(this.byId.get(id)!);
    return found;
  }

  /** Adds or replaces an entry (a replaced one keeps its place). */
  put(entry: OutboxEntry): void {
    const before = this.byId.get(entry.id);
    if (before && before.itemId !== entry.itemId) this.unindexItem(before);
    this.byId.set(entry.id, entry);
    let ids = this.byItem.get(entry.itemId);
    if (!ids) this.byItem.set(entry.itemId, (ids = new Set()));
    ids.add(entry.id);
    if (entry.state === 'grace') this.grace.add(entry.id);
    else this.grace.delete(entry.id);
    if (entry.state === 'sending') this.sending.add(entry.id);
    else this.sending.delete(entry.id);
    if (entry.state === 'queued' && !entry.held) this.queue.add(entry.id);
    else this.queue.delete(entry.id);
    if (entry.state === 'queued' && !entry.held && !entry.budget && isCharged(entry)) this.ungated.add(entry.id);
    else this.ungated.delete(entry.id);
    this.list = null;
  }

  remove(id: string): OutboxEntry | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    this.byId.delete(id);
    this.unindexItem(entry);
    this.grace.delete(id);
    this.sending.delete(id);
    this.queue.delete(id);
    this.ungated.delete(id);
    this.list = null;
    return entry;
  }

  /** The entries as one array: the same array until something changes. */
  toArray(): readonly OutboxEntry[] {
    return (this.list ??= [...this.byId.values()]);
  }

  private unindexItem(entry: OutboxEntry): void {
    const ids = this.byItem.get(entry.itemId);
    ids?.delete(entry.id);
    if (ids?.size === 0) this.byItem.delete(entry.itemId);
  }
}
