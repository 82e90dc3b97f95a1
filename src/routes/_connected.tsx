import { createFileRoute, redirect } from '@tanstack/react-router';
import { isConnected } from '../data';
import { isSafeRedirect } from '../api/contract/safe-redirect';

/**
 * The pages that need a key, guarded once: without a connected key the user is sent to connect,
 * with where they were going, and comes back there afterwards.
 */
export const Route = createFileRoute('/_connected')({
  beforeLoad: ({ context, location }) => {
    const { connection } = context;
    if (!isConnected(connection)) {
      // Through a team hub the member signs in (no key to enter); otherwise the connect form.
      const search = isSafeRedirect(location.href) ? { redirect: location.href } : {};
      throw context.hub ? redirect({ to: '/sign-in', search }) : redirect({ to: '/connection', search });
    }
    return { connection };
  },
  // Every page under it may decide: the outbox is loaded (and the connection's decisions read) first.
  // Once loaded, the loader returns at once: a navigation that only changes the search (a page size,
  // a filter) then has no async step, so it never shows the pending page in place of the workspace
  // (which lost the workspace's state, and flashed a skeleton, on a loaded machine).
  loader: ({ context }) => (context.outbox.current ? undefined : context.outbox.load().then(() => undefined)),
});
