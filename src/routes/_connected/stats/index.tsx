import { createFileRoute } from '@tanstack/react-router';
import { OrganizationStatsPage } from '../../../features/stats';

// The component (with the local store and recharts behind it) is split off by the router plugin's
// autoCodeSplitting (vite.config.ts): it loads when the route opens, never with the first page.
export const Route = createFileRoute('/_connected/stats/')({
  component: function OrganizationStatsRoute() {
    return <OrganizationStatsPage connection={Route.useRouteContext().connection} />;
  },
});
