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
 * Under the header while the console is offline (a page the offline app shell opened, or one that
 * lost the network): what the page shows and what happens to decisions, so nothing looks stale or
 * lost without a word. Offline is the browser's word (navigator.onLine) or the service's silence
 * (the connection's last request found nothing answering): the browser's alone is not enough, it
 * says online on a network that reaches nothing (and in a page loaded while offline, Chromium's
 * emulation included). Gone once the network is back and a request is answered.
 */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  const { active, observed } = useConnections();
  const unreachable = active ? observed[active.id]?.state === 'unreachable' : false;
  if (online && !unreachable) return null;
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <strong className="font-semibold">Offline.</strong> {online ? 'The service does not answer.' : 'This device has no network.'} This page shows what this
      browser keeps; decisions wait on this device and are sent once the service answers.
    </div>
  );
}
