/**
 * Registers the offline app shell's worker (service-worker/sw.ts; its scope is the whole origin,
 * its script being at the root), so that a reload or a new tab while the network is down still
 * opens the console (docs/architecture.md, "Offline"). Only in a build: the dev server's modules
 * are not a build to precache.
 */
export function registerOfflineShell(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // After the page has loaded: the worker's install fetches every file of the build, which must not
  // compete with the first page's own requests.
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
