import { createFileRoute } from '@tanstack/react-router';
import { verticalsQuery, VerticalsPage } from '../features/verticals';

export const Route = createFileRoute('/verticals')({
  loader: ({ context }) => context.queryClient.ensureQueryData(verticalsQuery(context.connection)),
  component: function VerticalsRoute() {
    return <VerticalsPage connection={Route.useRouteContext().connection} />;
  },
});
