import { createFileRoute } from '@tanstack/react-router';
import { MembersPage, membersQuery, NotForRole } from '../../features/team';

export const Route = createFileRoute('/team/members')({
  loader: ({ context }) => (context.me?.role === 'admin' ? context.queryClient.ensureQueryData(membersQuery()) : undefined),
  component: function TeamMembersRoute() {
    const { me } = Route.useRouteContext();
    if (!me) return null;
    return me.role === 'admin' ? <MembersPage me={me} /> : <NotForRole page="Members" who="Only an admin manages the team’s members." />;
  },
});
