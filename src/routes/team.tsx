import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { NotConnectedToHub, TeamNav } from '../features/team';
import { isSafeRedirect } from '../api/contract/safe-redirect';

/**
 * The team pages, guarded on their own (not by _connected: a hub member has no key in the
 * browser). Hub mode, detected once at start by GET /hub/v1/me (src/app/hub-mode.ts), decides: a
 * member → the pages; hub mode with nobody signed in → sign in and come back; personal mode → a page
 * saying this console is not connected to a team hub. The hub checks every request's role itself,
 * so a role changed since the page loaded only shows a control the hub then refuses.
 */
export const Route = createFileRoute('/team')({
  beforeLoad: ({ context, location }) => {
    if (context.hub && !context.hub.member) {
      throw redirect({ to: '/sign-in', search: isSafeRedirect(location.href) ? { redirect: location.href } : {} });
    }
    return { me: context.hub?.member ?? null };
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
