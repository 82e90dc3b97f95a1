import { useState } from 'react';
import { hubApi } from '../../api/hub';
import { Button } from '../../components/ui/button';
import type { HubMode } from '../../data';
import { useHubSessionWatch } from './session-watch';

/**
 * The header in hub mode: who is signed in (email, role), Sign out and Sign out everywhere; and it
 * watches for a session that ends (session-watch.ts). Loaded only in hub mode, not with the first page.
 */
export function MemberMenu({ hub }: { hub: HubMode }) {
  const [error, setError] = useState<string | null>(null);
  useHubSessionWatch(hub);
  if (!hub.member) return null;
  const signOut = async (everywhere: boolean) => {
    setError(null);
    try {
      await hubApi(hub.origin).signOut(everywhere);
    } catch (failure) {
      // A session that had ended already is signed out all the same.
      if (!(failure instanceof Error && 'status' in failure && failure.status === 401)) {
        setError('Sign-out failed: the team hub did not answer. Try again.');
        return;
      }
    }
    window.location.assign('/sign-in');
  };
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <span className="min-w-0 truncate" title={hub.member.email}>
        <span className="sr-only">Signed in as </span>
        {hub.member.email}
      </span>
      <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">{hub.member.role}</span>
      <Button size="sm" variant="ghost" onClick={() => void signOut(false)}>
        Sign out
      </Button>
      <Button size="sm" variant="ghost" onClick={() => void signOut(true)}>
        Sign out everywhere
      </Button>
      {error && (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </div>
  );
}
