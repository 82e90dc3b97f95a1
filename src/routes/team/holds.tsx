import { createFileRoute } from '@tanstack/react-router';
import { HoldsPage, holdsQuery } from '../../features/team';

export const Route = createFileRoute('/team/holds')({
  loader: ({ context }) => (context.me ? context.queryClient.ensureQueryData(holdsQuery()) : undefined),
  component: function TeamHoldsRoute() {
    const { me } = Route.useRouteContext();
    return me ? <HoldsPage me={me} /> : null;
  },
});
