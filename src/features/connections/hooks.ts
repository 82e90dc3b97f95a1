import { useSyncExternalStore } from 'react';
import { connectionStore } from './instance';

export function useConnections() {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

export function useActiveConnection() {
  return useConnections().active;
}
