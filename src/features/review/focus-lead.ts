/**
 * The item a keypress moved the card to, ahead of the workspace. A keypress that moves on (J, K,
 * Home, End, a decision's jump) sets it, and only the focused card renders before the frame paints;
 * the workspace (the list's focused row, the selection bar, prefetching) takes the same focus in
 * the task after that paint and clears the lead once its render has the lead's item focused. The
 * handlers read the lead first, so two keys inside one frame act on the item the reviewer sees.
 *
 * Keyed by item, not index: a list that changes under the lead (a pull, a deletion) does not move it
 * to another item; a lead whose item is gone is dropped.
 */
export interface FocusLead {
  /** The key of the item the card shows ahead of the workspace, if any. */
  get(): string | null;
  set(key: string): void;
  /** Drops the lead without telling the card: the workspace's render, under way, shows the same item. */
  clear(): void;
  subscribe(listener: () => void): () => void;
}

export function createFocusLead(): FocusLead {
  let key: string | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => key,
    set(next) {
      if (next === key) return;
      key = next;
      for (const listener of [...listeners]) listener();
    },
    clear() {
      key = null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
