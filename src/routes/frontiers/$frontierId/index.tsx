import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPanel } from '../../../components/ui/not-found-panel';
import { notFoundOn404 } from '../../../lib/not-found';
import { FrontierPage, frontiersQuery, tasksQuery } from '../../../features/frontiers';

export const Route = createFileRoute('/frontiers/$frontierId/')({
  loader: ({ context, params }) =>
    notFoundOn404(
      Promise.all([
        context.queryClient.ensureQueryData(tasksQuery(context.connection, params.frontierId)),
        context.queryClient.ensureQueryData(frontiersQuery(context.connection, 'all')),
      ]),
    ),
  notFoundComponent: function FrontierNotFound() {
    return <NotFoundPanel title={`Frontier ${Route.useParams().frontierId} was not found`} back={{ label: 'Back to frontiers', link: { to: '/frontiers' } }} />;
  },
  component: function FrontierRoute() {
    return <FrontierPage connection={Route.useRouteContext().connection} frontierId={Route.useParams().frontierId} />;
  },
});
