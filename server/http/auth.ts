import { createMiddleware } from 'hono/factory';
import { verify } from 'hono/jwt';
import { API_KEY_PATTERN, type SubscriptionKind } from '../../src/api/contract';
import { ServiceError } from '../lib/service-error';
import { findKey, type KeyRecord } from '../store/keys';
import { orgExists } from '../store/orgs';
import { getSubscription, type SubscriptionRow } from '../store/subscriptions';
import type { AppEnv, ServiceContext } from './context';

export const JWT_AUDIENCE = 'dds-dashboard';

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : '';
}

/**
 * API-key authentication (spec 5.1). The key is looked up by hash on every request,
 * so a revoke or an expiry takes effect on the very next one. Messages never echo the key.
 */
export const requireKey = (ctx: ServiceContext) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearer(c.req.header('Authorization'));
    if (token === null) throw new ServiceError('MISSING_API_KEY', 'send the API key as Authorization: Bearer <API key>');
    if (!token) throw new ServiceError('INVALID_API_KEY', 'the Authorization header must be Bearer <API key>');
    if (!API_KEY_PATTERN.test(token)) {
      throw new ServiceError('INVALID_API_KEY', 'the API key is malformed: expected <service>_live_sk_ and 32 URL-safe characters');
    }
    const key = findKey(ctx.db, token);
    if (!key) throw new ServiceError('INVALID_API_KEY', 'the API key is not recognised');
    if (key.revoked_at) throw new ServiceError('KEY_REVOKED', 'the API key has been revoked');
    if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) {
      throw new ServiceError('KEY_EXPIRED', `the API key expired at ${key.expires_at}`);
    }
    c.set('key', key);
    await next();
  });

/** Dashboard JWT authentication (spec 5.3): HS256, signed with the data directory's secret. */
export const requireDashboardToken = (ctx: ServiceContext) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearer(c.req.header('Authorization'));
    if (!token) throw new ServiceError('INVALID_TOKEN', 'this endpoint needs a dashboard JWT: Authorization: Bearer <JWT>');
    let claims: Record<string, unknown>;
    try {
      claims = await verify(token, ctx.jwtSecret, { alg: 'HS256', aud: JWT_AUDIENCE });
    } catch {
      throw new ServiceError('INVALID_TOKEN', 'the dashboard JWT is invalid or expired');
    }
    // verify() checks exp only when present: a token without one would never expire. And a
    // session belongs to an organization: one naming none this service knows is not a session.
    if (typeof claims.exp !== 'number') throw new ServiceError('INVALID_TOKEN', 'the dashboard JWT has no expiry (exp)');
    if (typeof claims.sub !== 'string' || !orgExists(ctx.db, claims.sub)) {
      throw new ServiceError('INVALID_TOKEN', 'the dashboard JWT does not name an organization of this service (sub)');
    }
    await next();
  });

/**
 * A key may use a subscription for data only if it covers the subscription and has data access
 * (spec 5.5), and the subscription is of the endpoint's family. Checked in that order, so each
 * refusal names the first thing to fix: a subscription of no organization or of another one is
 * unknown (NOT_FOUND, as another organization's item is: nothing tells whether it exists); one of
 * the key's organization that the key does not cover is out of scope; then data access.
 */
export function authorizeSubscription(ctx: ServiceContext, key: KeyRecord, subscriptionId: string, kind: SubscriptionKind): SubscriptionRow {
  const sub = getSubscription(ctx.db, subscriptionId);
  if (!sub || sub.org_id !== key.org_id) throw new ServiceError('NOT_FOUND', `subscription ${subscriptionId} not found`);
  if (!key.subscription_ids.has(subscriptionId)) {
    throw new ServiceError('SUBSCRIPTION_NOT_IN_SCOPE', `subscription ${subscriptionId} is not covered by this API key`);
  }
  if (!key.data_access) throw new ServiceError('NO_DATA_ACCESS', 'this API key has no data-access permission');
  if (sub.kind !== kind) {
    throw new ServiceError(
      'INVALID_PARAMETER',
      `subscription ${subscriptionId} is a ${sub.kind} subscription; use the ${sub.kind === 'live' ? '/v1/live' : '/v1/data'} endpoints`,
    );
  }
  return sub;
}
