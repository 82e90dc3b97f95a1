import { createFileRoute } from '@tanstack/react-router';
import { disagreementsQuery, NotForRole, OverlapPage, overlapSettingsQuery } from '../../features/team';

export const Route = createFileRoute('/team/overlap')({
  loader: ({ context }) =>
    context.me && context.me.role !== 'reviewer'
      ? Promise.all([context.queryClient.ensureQueryData(overlapSettingsQuery()), context.queryClient.ensureQueryData(disagreementsQuery())])
      : undefined,
  component: function TeamOverlapRoute() {
    const { me } = Route.useRouteContext();
    if (me?.role === 'reviewer')
      return <NotForRole page="Overlap and the lead’s queue" who="Admins set the overlap and settle split votes; viewers may look." />;
    return me ? <OverlapPage me={me} /> : null;
  },
});
