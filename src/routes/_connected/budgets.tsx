import { createFileRoute, redirect } from '@tanstack/react-router';
import { BudgetsPage } from '../../features/budgets';

export const Route = createFileRoute('/_connected/budgets')({
  // Through a team hub the browser's own limits are not what holds an adopt (the hub's are, for
  // every member): the team's budgets page is the one to read and set.
  beforeLoad: ({ context }) => {
    if (context.hub?.member) throw redirect({ to: '/team/budgets', replace: true });
  },
  component: function BudgetsRoute() {
    return <BudgetsPage connection={Route.useRouteContext().connection} />;
  },
});
