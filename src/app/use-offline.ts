import { useSyncExternalStore } from 'react';
import { useConnections } from '../data';

const subscribe = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};

/**
 * Whether the console is offline, and why: the browser's word (navigator.onLine) or the service's
 * silence (the connection's last request found nothing answering). The browser's alone is not
 * enough: it says online on a network that reaches nothing, and in a page loaded while offline
 * (Chromium's emulation included). Null while online and answered.
 */
export function useOffline(): 'no network' | 'no answer' | null {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  const { active, observed } = useConnections();
  if (!online) return 'no network';
  return active && observed[active.id]?.state === 'unreachable' ? 'no answer' : null;
}
