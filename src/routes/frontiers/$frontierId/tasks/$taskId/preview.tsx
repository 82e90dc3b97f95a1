import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPanel } from '../../../../../components/ui/not-found-panel';
import { notFoundOn404 } from '../../../../../lib/not-found';
import { previewBlocker, previewLimit, previewQuery, PreviewPage, previewSearchSchema } from '../../../../../features/frontiers';

export const Route = createFileRoute('/frontiers/$frontierId/tasks/$taskId/preview')({
  validateSearch: previewSearchSchema,
  loaderDeps: ({ search }) => ({ limit: previewLimit(search.limit).limit }),
  loader: ({ context, params, deps }) => {
    const { connection } = context;
    // Without a usable JWT the page explains what to do instead of failing.
    if (!connection || previewBlocker(connection)) return;
    return notFoundOn404(context.queryClient.ensureQueryData(previewQuery(connection, params.frontierId, params.taskId, deps.limit)));
  },
  notFoundComponent: function TaskNotFound() {
    const { frontierId, taskId } = Route.useParams();
    return (
      <NotFoundPanel
        title={`Task ${taskId} of frontier ${frontierId} was not found`}
        back={{ label: `Back to the tasks of frontier ${frontierId}`, link: { to: '/frontiers/$frontierId', params: { frontierId } } }}
      />
    );
  },
  component: function PreviewRoute() {
    const { frontierId, taskId } = Route.useParams();
    return <PreviewPage connection={Route.useRouteContext().connection} frontierId={frontierId} taskId={taskId} limit={Route.useSearch().limit} />;
  },
});
