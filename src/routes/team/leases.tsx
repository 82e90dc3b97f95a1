import { createFileRoute } from '@tanstack/react-router';
import { LeasesPage, leasesSubscriptionsQuery } from '../../features/team';

export const Route = createFileRoute('/team/leases')({
  loader: ({ context }) => (context.me ? context.queryClient.ensureQueryData(leasesSubscriptionsQuery()) : undefined),
  component: function TeamLeasesRoute() {
    const { me } = Route.useRouteContext();
    return me ? <LeasesPage me={me} /> : null;
  },
});
