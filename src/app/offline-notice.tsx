/**
 * Under the header while the console is offline (src/app/use-offline.ts): a page the offline app
 * shell opened, or one that lost the network. Says what the page shows and what happens to
 * decisions, so nothing looks stale or lost without a word; gone once the network is back and a
 * request is answered. Loaded only then (src/app/shell.tsx), not with every first page, into the
 * shell's live region (always mounted, so the text's arrival is announced).
 */
export default function OfflineNotice({ why }: { why: 'no network' | 'no answer' }) {
  return (
    <div className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <strong className="font-semibold">Offline.</strong> {why === 'no network' ? 'This device has no network.' : 'The service does not answer.'} This page
      shows what this browser keeps; decisions wait on this device and are sent once the service answers.
    </div>
  );
}
