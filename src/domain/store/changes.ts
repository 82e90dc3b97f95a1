import type { StoredItem } from './db';

/**
 * "Items of this subscription changed": told to this tab's listeners at once and to the other
 * tabs through a BroadcastChannel, so a pull in one tab shows in every tab of the organization.
 */
export interface ItemsChange {
  scope: string;
  /** `*`: every subscription of the scope. */
  subscriptionId: string;
  /** `deleted`: items went away (local data deleted), so lists reload rather than append. */
  kind?: 'added' | 'deleted';
  /**
   * This tab only: the rows a write added, once its transaction committed, so a list shows them
   * without reading them back (a re-read of a 200-item page cost ~10 ms before its paint). Other
   * tabs are told only that items changed, and read them.
   */
  rows?: readonly StoredItem[];
}

type Listener = (change: ItemsChange) => void;
const listeners = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function openChannel(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dds-local-items');
  channel?.addEventListener('message', (event: MessageEvent<ItemsChange>) => {
    if (event.data && typeof event.data.scope === 'string' && typeof event.data.subscriptionId === 'string')
      for (const listener of listeners) listener(event.data);
  });
  return channel;
}

export function announceItems(change: ItemsChange): void {
  for (const listener of listeners) listener(change);
  const { rows: _rows, ...told } = change;
  openChannel()?.postMessage(told);
}

export function watchItems(listener: Listener): () => void {
  openChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
