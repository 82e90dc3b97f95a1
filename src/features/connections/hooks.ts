import { useSyncExternalStore } from 'react';
import { connectionStore } from '../../data';

export function useConnections() {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

export function useActiveConnection() {
  return useConnections().active;
}
