import { createFileRoute } from '@tanstack/react-router';
import { FrontierPage, frontiersQuery, tasksQuery } from '../../../features/catalog';
import { connectionStore } from '../../../features/connections';

export const Route = createFileRoute('/frontiers/$frontierId/')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.ensureQueryData(tasksQuery(connectionStore.active, params.frontierId)),
      context.queryClient.ensureQueryData(frontiersQuery(connectionStore.active, 'all')),
    ]),
  component: function FrontierRoute() {
    return <FrontierPage frontierId={Route.useParams().frontierId} />;
  },
});
