import { createFileRoute } from '@tanstack/react-router';
import { OrganizationStatsPage } from '../../../features/stats';
import { AgreementPanel } from '../../../features/team';

// The component (with the local store and recharts behind it) is split off by the router plugin's
// autoCodeSplitting (vite.config.ts): it loads when the route opens, never with the first page.
export const Route = createFileRoute('/_connected/stats/')({
  component: function OrganizationStatsRoute() {
    const { connection, hub } = Route.useRouteContext();
    return (
      <>
        <OrganizationStatsPage connection={connection} />
        {/* Hub mode: the team's reviewers' agreement, by task (the subscriptions' labels) and by reviewer. */}
        {hub?.member && <AgreementPanel names={new Map(connection.subscriptions.map((s) => [s.id, s.label ?? s.id]))} />}
      </>
    );
  },
});
