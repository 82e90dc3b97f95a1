import { budgetsResponse, holdResponse, holdsResponse, type HubBudgetsInput } from '../../api/contract/hub-budgets';
import { z } from '../../api/contract/zod';
import { ApiError } from '../../api/errors';
import { call } from './api';

/*
 * The hub's budgets, held adopts and team subscriptions (/hub/v1/…), with the session cookie as
 * every team call (api.ts).
 */

/** The team's subscriptions as far as the budgets page needs them: their ids, kinds and labels. */
const teamSubscriptionsResponse = z.object({
  subscriptions: z.array(z.object({ id: z.string(), kind: z.string().optional(), label: z.string().optional() })),
});

const id = (value: string) => encodeURIComponent(value);

export const budgetsApi = {
  budgets: () => call(budgetsResponse, '/budgets'),
  saveBudgets: (body: HubBudgetsInput) => call(budgetsResponse, '/budgets', { method: 'PUT', body }),
  /** Read the vendor's receipts now (admin): the budgets as they are after the read. */
  syncReceipts: () => call(budgetsResponse, '/budgets/sync', { method: 'POST' }),
  holds: (all: boolean) => call(holdsResponse, all ? '/holds?state=all' : '/holds'),
  release: (holdId: string) => call(holdResponse, `/holds/${id(holdId)}/release`, { method: 'POST' }),
  drop: (holdId: string) => call(holdResponse, `/holds/${id(holdId)}`, { method: 'DELETE' }),
  /** The team's priced subscriptions (a live adopt charges nothing); none on a hub that does not list them (404). */
  teamSubscriptions: async () => {
    try {
      return (await call(teamSubscriptionsResponse, '/subscriptions')).subscriptions.filter((s) => s.kind !== 'live');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
};
