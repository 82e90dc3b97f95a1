import { useSyncExternalStore } from 'react';
import { connectionStore } from './session';

/** The saved connections and the active one, read from the store outside React. */
export function useConnections() {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

export function useActiveConnection() {
  return useConnections().active;
}
