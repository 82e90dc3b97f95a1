import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { meQuery, NotConnectedToHub, TeamNav, teamGate } from '../features/team';
import { isSafeRedirect } from '../lib/safe-redirect';

/**
 * The team pages, guarded on their own (not by _connected: a hub member has no key in the
 * browser). GET /hub/v1/me decides: a member → the pages; 401 → sign in and come back; no hub
 * (404, a network error, an answer that is not the hub's) → a page saying so.
 */
export const Route = createFileRoute('/team')({
  beforeLoad: async ({ context, location }) => {
    const gate = await teamGate(() => context.queryClient.ensureQueryData(meQuery()));
    if ('signIn' in gate) {
      // /sign-in is hub mode's own page: a plain href, so this route does not depend on how it is built.
      throw redirect({ href: `/sign-in${isSafeRedirect(location.href) ? `?redirect=${encodeURIComponent(location.href)}` : ''}` });
    }
    return gate;
  },
  component: function TeamRoute() {
    const { me } = Route.useRouteContext();
    if (!me) return <NotConnectedToHub />;
    return (
      <>
        <TeamNav role={me.role} />
        <Outlet />
      </>
    );
  },
});
