import { useEffect, useId, useRef, useState } from 'react';
import { hubApi } from '../../api/hub';
import { Button } from '../../components/ui/button';
import { outboxCounts, useConnections, useOutbox, useOutboxEntries, type HubMode } from '../../data';
import { useDismiss } from '../../lib/use-dismiss';
import { useHubSessionWatch } from './session-watch';

/**
 * The header in hub mode: who is signed in (email, role) on one button, which opens Sign out and
 * Sign out everywhere; and it watches for a session that ends (session-watch.ts). One row: the
 * email, the role and two buttons side by side took three rows at 1280 px, and the review's item
 * the height they took. Loaded only in hub mode, not with the first page.
 */
export function MemberMenu({ hub }: { hub: HubMode }) {
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // The role as the connection has it now: an admin's change reaches it on the change stream (src/app/hub-mode.ts).
  const role = useConnections().active?.hub?.member.role ?? hub.member?.role;
  useHubSessionWatch(hub);

  // Closes on Escape (the focus back on its button) and on a click or focus outside it.
  useDismiss(open, () => setOpen(false), box, button);

  if (!hub.member) return null;
  const signOut = async (everywhere: boolean) => {
    setError(null);
    setOpen(false);
    try {
      await hubApi(hub.origin).signOut(everywhere);
    } catch (failure) {
      // A session that had ended already is signed out all the same.
      if (!(failure instanceof Error && 'status' in failure && failure.status === 401)) {
        setError('Sign-out failed: the team hub did not answer. Try again.');
        return;
      }
    }
    hub.forget?.();
    window.location.assign('/sign-in');
  };
  return (
    <div ref={box} className="relative flex min-w-0 items-center gap-2 text-sm">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((was) => !was)}
        className="flex min-w-0 items-center gap-1.5 rounded px-1 py-0.5 hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <span className="sr-only">Signed in as </span>
        <span className="min-w-0 truncate" title={hub.member.email}>
          {hub.member.email}
        </span>
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-700 dark:text-slate-200">{role}</span>
        <span aria-hidden>▾</span>
      </button>
      {open && (
        <div
          id={id}
          className="absolute right-0 top-full z-30 mt-1 flex min-w-44 flex-col items-stretch gap-1 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <SignOutButtons signOut={(everywhere) => void signOut(everywhere)} />
        </div>
      )}
      {error && (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * Sign out, after this tab's decisions not sent yet: they belong to this member, so once another
 * signs in on this browser they would wait here until this member came back. Their undo windows
 * end at once and the sign-out waits until the hub has them; the member may also sign out without
 * waiting (they then wait on this device) or stay.
 */
function SignOutButtons({ signOut }: { signOut: (everywhere: boolean) => void }) {
  const outbox = useOutbox();
  const connection = useConnections().active;
  const { unsent } = outboxCounts(useOutboxEntries(connection?.id));
  const [leaving, setLeaving] = useState<{ everywhere: boolean } | null>(null);
  // Once: the caller is a new function on every render (the sign-out closes this menu).
  const fired = useRef(false);
  useEffect(() => {
    if (!leaving || unsent > 0 || fired.current) return;
    fired.current = true;
    signOut(leaving.everywhere);
  }, [leaving, unsent, signOut]);
  const start = (everywhere: boolean) => {
    if (unsent > 0 && connection) outbox.sendNow(connection.id);
    setLeaving({ everywhere });
  };
  if (leaving && unsent > 0) {
    return (
      <div role="status" className="flex max-w-64 flex-col gap-1 p-1 text-sm">
        <p>
          Sending {unsent} decision{unsent === 1 ? '' : 's'} before signing out…
        </p>
        <Button size="sm" onClick={() => signOut(leaving.everywhere)}>
          Sign out without waiting
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setLeaving(null)}>
          Stay signed in
        </Button>
      </div>
    );
  }
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => start(false)}>
        Sign out
      </Button>
      <Button size="sm" variant="ghost" onClick={() => start(true)}>
        Sign out everywhere
      </Button>
    </>
  );
}
