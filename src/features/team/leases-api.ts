import {
  batchResponse,
  leaseSettingsResponse,
  leasesResponse,
  queueCountsResponse,
  releaseResponse,
  renewResponse,
  revokeResponse,
  type QueueFilters,
} from '../../api/contract/hub-leases';
import { z } from '../../api/contract/zod';
import { call } from './api';
import { HUB_QUERY_KEY } from './queries';

/* The team queue (/hub/v1/queue, /hub/v1/leases): batches, their renewal and release, who holds what. */

const id = (value: string) => encodeURIComponent(value);
const subscriptionsResponse = z.object({ subscriptions: z.array(z.object({ id: z.string(), kind: z.string().optional(), label: z.string().optional() })) });

export const LEASES_KEY = [...HUB_QUERY_KEY, 'leases'] as const;

export const leasesApi = {
  subscriptions: () => call(subscriptionsResponse, '/subscriptions').then((r) => r.subscriptions),
  counts: (subscriptionId: string) => call(queueCountsResponse, `/queue/counts?subscription_id=${id(subscriptionId)}`),
  take: (subscriptionId: string, size: number, filters?: QueueFilters) =>
    call(batchResponse, '/queue/take', { method: 'POST', body: { subscription_id: subscriptionId, size, filters } }).then((r) => r.batch),
  renew: (batchId: string) => call(renewResponse, '/queue/renew', { method: 'POST', body: { batch_id: batchId } }),
  release: (batchId: string) => call(releaseResponse, '/queue/release', { method: 'POST', body: { batch_id: batchId } }),
  leases: (subscriptionId?: string) => call(leasesResponse, subscriptionId ? `/leases?subscription_id=${id(subscriptionId)}` : '/leases').then((r) => r.leases),
  takeBack: (batchId: string) => call(revokeResponse, `/leases/${id(batchId)}`, { method: 'DELETE' }),
  setIdle: (subscriptionId: string, idleSeconds: number) =>
    call(leaseSettingsResponse, '/queue/settings', { method: 'PUT', body: { subscription_id: subscriptionId, idle_seconds: idleSeconds } }),
};
