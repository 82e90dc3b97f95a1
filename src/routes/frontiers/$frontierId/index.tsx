import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPanel } from '../../../components/route-states';
import { notFoundOn404 } from '../../../lib/not-found';
import { FrontierPage, frontiersQuery, tasksQuery } from '../../../features/frontiers';
import { connectionStore } from '../../../features/connections';

export const Route = createFileRoute('/frontiers/$frontierId/')({
  loader: ({ context, params }) =>
    notFoundOn404(
      Promise.all([
        context.queryClient.ensureQueryData(tasksQuery(connectionStore.active, params.frontierId)),
        context.queryClient.ensureQueryData(frontiersQuery(connectionStore.active, 'all')),
      ]),
    ),
  notFoundComponent: function FrontierNotFound() {
    return <NotFoundPanel title={`Frontier ${Route.useParams().frontierId} was not found`} back={{ label: 'Back to frontiers', link: { to: '/frontiers' } }} />;
  },
  component: function FrontierRoute() {
    return <FrontierPage frontierId={Route.useParams().frontierId} />;
  },
});
