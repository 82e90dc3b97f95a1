import {
  deliveriesResponseSchema,
  deliveryItemsResponseSchema,
  frontiersResponseSchema,
  frontierTasksResponseSchema,
  keyVerificationSchema,
  liveFeedbackResponseSchema,
  livePullResponseSchema,
  previewResponseSchema,
  simulatedFeedbackResponseSchema,
  simulatedPullResponseSchema,
  usageResponseSchema,
  verticalsResponseSchema,
  type FrontierStatusFilter,
  type LivePullParams,
} from './contract';
import { isValidId } from './contract/ids';
import { ApiError } from './errors';
import { request, type HttpConfig } from './http';

export interface ClientConfig extends HttpConfig {
  apiKey?: string;
  /** Dashboard JWT for the task preview (spec 4.4). */
  jwt?: string;
}

/**
 * An ID as a path segment. An ID the service could never accept (outside `[A-Za-z0-9._:-]`, or `.`
 * and `..`, which `new URL` collapses into another path) is refused here, before any request:
 * the console never builds a path from one (a delivered item named `..` once sent its decision to
 * another endpoint). The refusal is a 400 like the service's own, so it fails once, never retried.
 */
function seg(id: string): string {
  if (!isValidId(id))
    throw new ApiError(400, 'INVALID_PARAMETER', `"${id.slice(0, 80)}" is not a valid ID (letters, digits, ".", "_", ":" and "-"): nothing was sent`, '');
  return id;
}

/** One typed function per endpoint of the spec; every response validated. */
export function createClient(config: ClientConfig) {
  const key = () => config.apiKey;
  return {
    /** 4.1 */
    listFrontiers: (status: FrontierStatusFilter = 'online', signal?: AbortSignal) =>
      request(config, { method: 'GET', path: '/v1/frontiers', query: { status }, schema: frontiersResponseSchema, signal }).then((r) => r.data),
    /** 4.2 */
    listTasks: (frontierId: string, signal?: AbortSignal) =>
      request(config, { method: 'GET', path: `/v1/frontiers/${seg(frontierId)}/tasks`, schema: frontierTasksResponseSchema, signal }).then((r) => r.data),
    /** 4.3 */
    listVerticals: (signal?: AbortSignal) =>
      request(config, { method: 'GET', path: '/v1/data/verticals', schema: verticalsResponseSchema, signal }).then((r) => r.data),
    /** 4.4 (JWT) */
    previewTask: (frontierId: string, taskId: string, limit: number, signal?: AbortSignal) =>
      request(config, {
        method: 'GET',
        path: `/v1/frontiers/${seg(frontierId)}/tasks/${seg(taskId)}/preview`,
        query: { limit },
        token: config.jwt,
        schema: previewResponseSchema,
        signal,
      }).then((r) => r.data),
    /** 4.5: verifies the connection's key, or another one given here. */
    verifyKey: (apiKey?: string) =>
      request(config, { method: 'POST', path: '/v1/auth/verify-key', token: apiKey ?? key(), usesKey: apiKey === undefined, schema: keyVerificationSchema }),
    /** 4.6: either response form, normalised. */
    pullLive: (params: LivePullParams, signal?: AbortSignal) =>
      request(config, {
        method: 'GET',
        path: '/v1/live/pull',
        query: {
          subscription_id: params.subscription_id,
          limit: params.limit,
          from: params.from,
          cursor: params.cursor,
          task_ids: params.task_ids?.join(','),
          campaign_ids: params.campaign_ids?.join(','),
        },
        token: key(),
        usesKey: true,
        schema: livePullResponseSchema,
        signal,
        // Without `from`, a pull is incremental: it moves the position, so it is never retried.
        idempotent: params.from === 'beginning',
      }),
    /** 4.7 */
    usage: (limit: number, signal?: AbortSignal) =>
      request(config, { method: 'GET', path: '/v1/live/usage', query: { limit }, token: key(), usesKey: true, schema: usageResponseSchema, signal }),
    /** 4.8 */
    adoptLive: (submissionId: string, subscriptionId: string) =>
      request(config, {
        method: 'POST',
        path: `/v1/live/items/${seg(submissionId)}/adopt`,
        body: { subscription_id: subscriptionId },
        token: key(),
        usesKey: true,
        schema: liveFeedbackResponseSchema,
      }),
    /** 4.9 */
    disputeLive: (submissionId: string, subscriptionId: string, reason?: string) =>
      request(config, {
        method: 'POST',
        path: `/v1/live/items/${seg(submissionId)}/dispute`,
        body: reason ? { subscription_id: subscriptionId, reason } : { subscription_id: subscriptionId },
        token: key(),
        usesKey: true,
        schema: liveFeedbackResponseSchema,
      }),
    /** 4.10 */
    pullSimulated: (subscriptionId: string, limit: number, signal?: AbortSignal) =>
      request(config, {
        method: 'GET',
        path: '/v1/data/pull',
        query: { subscription_id: subscriptionId, limit },
        token: key(),
        usesKey: true,
        schema: simulatedPullResponseSchema,
        signal,
      }),
    /** 4.11 */
    adoptItem: (itemId: string) =>
      request(config, { method: 'POST', path: `/v1/data/items/${seg(itemId)}/adopt`, token: key(), usesKey: true, schema: simulatedFeedbackResponseSchema }),
    /** 4.12 */
    disputeItem: (itemId: string) =>
      request(config, { method: 'POST', path: `/v1/data/items/${seg(itemId)}/dispute`, token: key(), usesKey: true, schema: simulatedFeedbackResponseSchema }),
    /** 4.13 */
    listDeliveries: (limit: number, signal?: AbortSignal) =>
      request(config, { method: 'GET', path: '/v1/data/deliveries', query: { limit }, token: key(), usesKey: true, schema: deliveriesResponseSchema, signal }),
    /** 4.14 */
    deliveryItems: (deliveryId: string, signal?: AbortSignal) =>
      request(config, {
        method: 'GET',
        path: `/v1/data/deliveries/${seg(deliveryId)}/items`,
        token: key(),
        usesKey: true,
        schema: deliveryItemsResponseSchema,
        signal,
      }),
  };
}

export type DdsClient = ReturnType<typeof createClient>;
