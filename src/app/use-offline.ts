import { useSyncExternalStore } from 'react';
import { connectionStore } from '../data';

const subscribe = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};

/** Whether the active connection's last request found nothing answering. */
const unanswered = () => {
  const { active, observed } = connectionStore.getSnapshot();
  return !!active && observed[active.id]?.state === 'unreachable';
};

/**
 * Whether the console is offline, and why: the browser's word (navigator.onLine) or the service's
 * silence (the connection's last request found nothing answering). The browser's alone is not
 * enough: it says online on a network that reaches nothing, and in a page loaded while offline
 * (Chromium's emulation included). Null while online and answered.
 *
 * It reads that one answer from the store, not the whole snapshot: the shell uses it, and a page's
 * first answer (a pull's, in bench:ui) records "connected", which re-rendered the whole shell
 * between the pull's answer and its items painted.
 */
export function useOffline(): 'no network' | 'no answer' | null {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  const silent = useSyncExternalStore(connectionStore.subscribe, unanswered);
  if (!online) return 'no network';
  return silent ? 'no answer' : null;
}
