import type { APIRequestContext } from '@playwright/test';
import { demoCredentials } from './service';

/** Reads the service's own record, as the test's independent witness. */
export function serviceApi(request: APIRequestContext, key = demoCredentials().api_key) {
  const headers = { Authorization: `Bearer ${key}` };
  return {
    async usage(limit = 200) {
      const response = await request.get(`/v1/live/usage?limit=${limit}`, { headers });
      return (await response.json()).data as {
        receipt_id: string;
        kind: string;
        item_id: string | null;
        amount_usd: number;
        subscription_id: string;
        created_at: string;
      }[];
    },
    async reread(subscriptionId: string, extra = '') {
      const items: { submission_id: string; consumer_feedback: string | null }[] = [];
      let cursor = '';
      do {
        const response = await request.get(
          `/v1/live/pull?subscription_id=${subscriptionId}&from=beginning&limit=200${extra}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { headers },
        );
        const body = await response.json();
        items.push(...body.data.items);
        cursor = body.data.next_cursor;
      } while (cursor);
      return items;
    },
    /** A frontier's tasks as the service publishes them (public: no key needed). */
    async tasks(frontierId: string) {
      const response = await request.get(`/v1/frontiers/${encodeURIComponent(frontierId)}/tasks`);
      return (await response.json()).data as { task_id: string; name: string }[];
    },
    async pending(subscriptionId: string, limit = 200) {
      const response = await request.get(`/v1/data/pull?subscription_id=${subscriptionId}&limit=${limit}`, { headers });
      return (await response.json()).data as { id: string; unit_price_usd: number }[];
    },
  };
}

/** Exact micro-USD of a wire amount (the contract's conversion, unit-tested on its own). */
export { usdToMicros as micros } from '../../src/api/contract/money';
