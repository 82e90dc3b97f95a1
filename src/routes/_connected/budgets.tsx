import { createFileRoute } from '@tanstack/react-router';
import { BudgetsPage } from '../../features/budgets';

export const Route = createFileRoute('/_connected/budgets')({
  component: function BudgetsRoute() {
    return <BudgetsPage connection={Route.useRouteContext().connection} />;
  },
});
