import { createFileRoute } from '@tanstack/react-router';
import { frontiersQuery, FrontiersPage, frontiersSearchSchema } from '../../features/frontiers';

export const Route = createFileRoute('/frontiers/')({
  validateSearch: frontiersSearchSchema,
  loaderDeps: ({ search }) => ({ status: search.status }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(frontiersQuery(context.connection, deps.status)),
  component: function FrontiersRoute() {
    return <FrontiersPage connection={Route.useRouteContext().connection} search={Route.useSearch()} />;
  },
});
