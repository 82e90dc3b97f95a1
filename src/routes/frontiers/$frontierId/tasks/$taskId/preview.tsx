import { createFileRoute } from '@tanstack/react-router';
import { previewBlocker, previewQuery, PreviewPage, previewSearchSchema } from '../../../../../features/catalog';
import { connectionStore } from '../../../../../features/connections';

export const Route = createFileRoute('/frontiers/$frontierId/tasks/$taskId/preview')({
  validateSearch: previewSearchSchema,
  loaderDeps: ({ search }) => ({ limit: search.limit }),
  loader: ({ context, params, deps }) => {
    const connection = connectionStore.active;
    // Without a usable JWT the page explains what to do instead of failing.
    if (!connection || previewBlocker(connection)) return;
    return context.queryClient.ensureQueryData(previewQuery(connection, params.frontierId, params.taskId, deps.limit));
  },
  component: function PreviewRoute() {
    const { frontierId, taskId } = Route.useParams();
    return <PreviewPage frontierId={frontierId} taskId={taskId} limit={Route.useSearch().limit} />;
  },
});
