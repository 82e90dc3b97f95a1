import { useCallback, useEffect, useRef, useState } from 'react';
import { itemsAfter, listGroupAfter, localChanges, localDb, subscribeItemsInFlight, touches, type ItemsInFlight, type StoredItem } from '../../../domain/store';
import { fromStored, type ReviewItem } from '../model';

const FIRST = 200;
const CHUNK = 5_000;

export interface StoredItems {
  items: readonly ReviewItem[];
  /** Every item of the subscription is listed (the first page shows before the rest are read). */
  complete: boolean;
  /** How many of `items` are listed while their write runs (shown from memory, not kept on this device until it commits). */
  unwritten: number;
  error: unknown;
}

/**
 * A subscription's items as the local store holds them: undecided first, each group in delivery
 * order, then whatever arrives later (a pull here or in another tab) appended in arrival order.
 * The first 200 show at once; the rest are read in chunks behind them.
 */
export function useStoredItems(scope: string | null, subscriptionId: string): StoredItems {
  const [state, setState] = useState<StoredItems>({ items: [], complete: false, unwritten: 0, error: null });
  const known = useRef(new Set<string>());
  const maxSeq = useRef(0);
  const generation = useRef(0);
  // What `append` listed while a full read ran: that read began before those rows were written, so
  // its result is what was read plus these (else a take's or a pull's items vanish from the list).
  const arrived = useRef<ReviewItem[]>([]);
  // Items listed while their write runs (this tab's, told as it started): kept on this device once it commits.
  const inFlight = useRef(new Set<string>());

  const take = useCallback((rows: readonly StoredItem[]) => {
    const fresh: ReviewItem[] = [];
    for (const row of rows) {
      maxSeq.current = Math.max(maxSeq.current, row.seq);
      if (known.current.has(row.itemId)) continue;
      known.current.add(row.itemId);
      fresh.push(fromStored(row));
    }
    return fresh;
  }, []);

  const load = useCallback(async () => {
    if (!scope) return;
    const run = ++generation.current;
    known.current = new Set();
    maxSeq.current = 0;
    arrived.current = [];
    const withArrived = (read: ReviewItem[]) => {
      const listed = new Set(read.map((i) => i.key));
      return read.concat(arrived.current.filter((i) => !listed.has(i.key)));
    };
    const db = localDb();
    try {
      // Undecided first, then decided, each in delivery order, read by key in chunks; the first
      // chunk shows at once, the rest are listed together when read (one render, not one per chunk).
      let items: ReviewItem[] = [];
      let shown = false;
      for (const open of [1, 0] as const) {
        let after = -Infinity;
        for (;;) {
          const size = shown ? CHUNK : FIRST;
          const rows = await listGroupAfter(db, scope, subscriptionId, open, after, size);
          if (run !== generation.current) return;
          items = items.concat(take(rows));
          if (!shown && (items.length >= FIRST || rows.length < size)) {
            shown = true;
            setState({ items: withArrived(items), complete: false, unwritten: inFlight.current.size, error: null });
          }
          if (rows.length < size) break;
          after = rows.at(-1)!.seq;
        }
      }
      // Items that arrived meanwhile (appended by `append`) stay, after the ones read.
      setState({ items: withArrived(items), complete: true, unwritten: inFlight.current.size, error: null });
    } catch (error) {
      if (run === generation.current) setState((s) => ({ ...s, error }));
    }
  }, [scope, subscriptionId, take]);

  const append = useCallback(
    (rows: readonly StoredItem[]) => {
      const fresh = take(rows);
      if (!fresh.length) return fresh;
      arrived.current.push(...fresh);
      setState((s) => ({ ...s, items: [...s.items, ...fresh], unwritten: inFlight.current.size }));
      return fresh;
    },
    [take],
  );

  // A write of this tab that is still running: its rows are listed at once, and counted as kept once
  // it committed. When it failed, or the store held some already (their row, in its place, is the
  // one to list), the list is read again: it shows what the store holds.
  const appendInFlight = useCallback(
    ({ rows, added }: ItemsInFlight) => {
      const fresh = rows.filter((row) => !known.current.has(row.itemId));
      for (const row of fresh) inFlight.current.add(row.itemId);
      const shown = append(fresh);
      if (!shown.length) return;
      const settled = (reread: boolean) => {
        for (const item of shown) inFlight.current.delete(item.id);
        setState((s) => ({ ...s, unwritten: inFlight.current.size }));
        if (reread) void load();
      };
      added.then(
        (written) => {
          const ids = new Set(written.map((row) => row.itemId));
          settled(shown.some((item) => !ids.has(item.id)));
        },
        () => settled(true),
      );
    },
    [append, load],
  );

  const appendNew = useCallback(async () => {
    if (!scope) return;
    const run = generation.current;
    try {
      const rows = await itemsAfter(localDb(), scope, subscriptionId, maxSeq.current);
      if (run === generation.current) append(rows);
    } catch (error) {
      setState((s) => ({ ...s, error }));
    }
  }, [scope, subscriptionId, append]);

  useEffect(() => {
    void load();
    // The fastest path: a write of this tab is listed as it starts, from memory.
    const stopInFlight = subscribeItemsInFlight(localDb(), (writing) => {
      if (writing.scope === scope && writing.subscriptionId === subscriptionId) appendInFlight(writing);
    });
    // The fast path: added rows are appended (from memory in the tab that wrote them), never a full re-read.
    const stop = localChanges().subscribe((change) => {
      if (!touches(change, scope, 'items', subscriptionId)) return;
      if (!change.appended) void load();
      // A write in this tab names its rows (committed already): shown from memory, not read back.
      else if (change.rows && change.ids?.length === 1) append(change.rows);
      else void appendNew();
    });
    return () => {
      stopInFlight();
      stop();
    };
  }, [scope, subscriptionId, load, append, appendNew, appendInFlight]);

  return state;
}
