import { createFileRoute } from '@tanstack/react-router';
import { frontiersQuery, FrontiersPage, frontiersSearchSchema } from '../../features/frontiers';
import { connectionStore } from '../../features/connections';

export const Route = createFileRoute('/frontiers/')({
  validateSearch: frontiersSearchSchema,
  loaderDeps: ({ search }) => ({ status: search.status }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(frontiersQuery(connectionStore.active, deps.status)),
  component: function FrontiersRoute() {
    return <FrontiersPage search={Route.useSearch()} />;
  },
});
