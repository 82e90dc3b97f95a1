import { createFileRoute } from '@tanstack/react-router';
import { usageQuery } from '../../data';
import { UsagePage, usageSearchSchema } from '../../features/usage';

export const Route = createFileRoute('/_connected/usage')({
  validateSearch: usageSearchSchema,
  loaderDeps: ({ search }) => ({ limit: search.limit }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(usageQuery(context.connection, deps.limit)),
  component: function UsageRoute() {
    return <UsagePage connection={Route.useRouteContext().connection} search={Route.useSearch()} />;
  },
});
