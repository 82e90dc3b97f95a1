import { createFileRoute } from '@tanstack/react-router';
import { requireConnection } from '../features/connections';
import { usageQuery, UsagePage, usageSearchSchema } from '../features/usage';

export const Route = createFileRoute('/usage')({
  validateSearch: usageSearchSchema,
  beforeLoad: ({ location }) => ({ connection: requireConnection(location) }),
  loaderDeps: ({ search }) => ({ limit: search.limit }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(usageQuery(context.connection, deps.limit)),
  component: function UsageRoute() {
    return <UsagePage search={Route.useSearch()} />;
  },
});
