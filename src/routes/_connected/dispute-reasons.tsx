import { createFileRoute } from '@tanstack/react-router';
import { DisputeReasonsPage } from '../../features/dispute-reasons';

export const Route = createFileRoute('/_connected/dispute-reasons')({
  component: function DisputeReasonsRoute() {
    return <DisputeReasonsPage connection={Route.useRouteContext().connection} />;
  },
});
