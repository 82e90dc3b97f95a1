import { createFileRoute } from '@tanstack/react-router';
import { BudgetsPage, budgetsQuery, membersQuery, teamSubscriptionsQuery } from '../../features/team';

export const Route = createFileRoute('/team/budgets')({
  loader: ({ context: { me, queryClient } }) =>
    me
      ? Promise.all([
          queryClient.ensureQueryData(budgetsQuery()),
          queryClient.ensureQueryData(teamSubscriptionsQuery()),
          // The members' rows are an admin's to list; others see those with a limit or spend.
          me.role === 'admin' ? queryClient.ensureQueryData(membersQuery()) : undefined,
        ])
      : undefined,
  component: function TeamBudgetsRoute() {
    const { me } = Route.useRouteContext();
    return me ? <BudgetsPage me={me} /> : null;
  },
});
