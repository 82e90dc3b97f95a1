import { queryOptions } from '@tanstack/react-query';
import { budgetsApi } from './budgets-api';
import { HUB_QUERY_KEY } from './queries';

export const BUDGETS_KEY = [...HUB_QUERY_KEY, 'budgets'] as const;
export const HOLDS_KEY = [...HUB_QUERY_KEY, 'holds'] as const;

export const budgetsQuery = () => queryOptions({ queryKey: BUDGETS_KEY, queryFn: budgetsApi.budgets });
export const holdsQuery = (all = false) => queryOptions({ queryKey: [...HOLDS_KEY, all ? 'all' : 'open'], queryFn: () => budgetsApi.holds(all) });
export const teamSubscriptionsQuery = () => queryOptions({ queryKey: [...HUB_QUERY_KEY, 'team-subscriptions'], queryFn: budgetsApi.teamSubscriptions });
