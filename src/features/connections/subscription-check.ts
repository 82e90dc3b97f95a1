import { createClient } from '../../api/client';
import { ApiError, ContractError, describeError, NetworkError } from '../../api/errors';
import type { ConnectionSubscription } from '../../data';

/**
 * Checking the subscription IDs of a connection before it is saved. No endpoint lists
 * subscriptions (spec 2.9), so each ID is probed with the smallest read that moves nothing:
 * a live re-read from the beginning (`from=beginning`, no cursor: the incremental position is
 * not moved and no receipt is written) or a simulated pull (it lists pending items; only adopt and
 * dispute change them), one item each, read and dropped. server/tests/subscription-probe.test.ts
 * checks both move nothing. The refusal says why (spec 5.5, 7.3).
 */
export type SubscriptionCheck =
  | { status: 'fine' }
  /** Refused: the connection is not saved with it. */
  | { status: 'unknown' | 'not-covered' | 'no-data-access' | 'wrong-kind' | 'refused'; message: string }
  /** Not answered: the ID could not be checked (the "Save without verifying" path). */
  | { status: 'unreachable'; message: string };

const KIND_NAMES = { live: 'live', simulated: 'simulated' } as const;
const other = (kind: ConnectionSubscription['kind']) => (kind === 'live' ? 'simulated' : 'live');

/** What one probe's outcome says about an ID (`null`: it was read). Pure, unit-tested. */
export function checkOf(error: unknown, sub: Pick<ConnectionSubscription, 'id' | 'kind'>): SubscriptionCheck {
  // A 2xx whose body did not parse still says the key may read the subscription.
  if (error === null || error instanceof ContractError) return { status: 'fine' };
  if (error instanceof NetworkError) return { status: 'unreachable', message: `Not checked: the service did not answer (${error.message}).` };
  if (error instanceof ApiError) {
    if (error.code === 'NOT_FOUND' || error.status === 404)
      return { status: 'unknown', message: `Unknown: the service knows no subscription ${sub.id} of this key's organization.` };
    if (error.code === 'SUBSCRIPTION_NOT_IN_SCOPE')
      return { status: 'not-covered', message: `Not covered by this key: it may not read ${sub.id}. Use a key that covers it, or remove it.` };
    if (error.code === 'NO_DATA_ACCESS')
      return { status: 'no-data-access', message: 'No data access: this key has no data-access permission, so it cannot read it.' };
    if (error.status === 429 || error.status >= 500)
      return { status: 'unreachable', message: `Not checked: the service answered ${describeError(error).title}.` };
  }
  return { status: 'refused', message: `Refused: ${describeError(error).title}: ${describeError(error).message}` };
}

/** Whether a check keeps the connection from being saved as it is. */
export const isRefused = (check: SubscriptionCheck) => check.status !== 'fine' && check.status !== 'unreachable';

/** A stable key for an ID of a kind: a check is shown only while the row still says the same. */
export const checkKey = (sub: Pick<ConnectionSubscription, 'id' | 'kind'>) => `${sub.kind} ${sub.id.trim()}`;

type Probe = (sub: Pick<ConnectionSubscription, 'id' | 'kind'>) => Promise<unknown>;

/** One probe: the error it failed with, or null when the subscription was read. */
const outcome = (probe: Probe, sub: Pick<ConnectionSubscription, 'id' | 'kind'>) =>
  probe(sub).then(
    () => null,
    (error: unknown) => error,
  );

/**
 * Checks each subscription (at the same time). A 400 on the family's endpoint is a subscription of
 * the other family (the service says so in its message, which is not part of the contract): the
 * other endpoint is tried, and when it reads, the row is told to switch its kind.
 */
export async function checkSubscriptionsWith(
  probe: Probe,
  subscriptions: readonly Pick<ConnectionSubscription, 'id' | 'kind'>[],
): Promise<SubscriptionCheck[]> {
  return Promise.all(
    subscriptions.map(async (sub) => {
      const error = await outcome(probe, sub);
      if (error instanceof ApiError && error.status === 400) {
        const flipped = await outcome(probe, { ...sub, kind: other(sub.kind) });
        if (flipped === null || flipped instanceof ContractError)
          return {
            status: 'wrong-kind',
            message: `Wrong kind: ${sub.id} is a ${KIND_NAMES[other(sub.kind)]} subscription, not a ${KIND_NAMES[sub.kind]} one. Choose ${other(sub.kind) === 'live' ? 'Live' : 'Simulated'}.`,
          } as const;
      }
      return checkOf(error, sub);
    }),
  );
}

/** The probes against a service with a key not yet saved: a client of its own, so nothing is marked on a saved connection. */
export function checkSubscriptions(baseUrl: string, apiKey: string, subscriptions: readonly Pick<ConnectionSubscription, 'id' | 'kind'>[]) {
  const client = createClient({ baseUrl, apiKey });
  const probe: Probe = (sub) =>
    sub.kind === 'live' ? client.pullLive({ subscription_id: sub.id, from: 'beginning', limit: 1 }) : client.pullSimulated(sub.id, 1);
  return checkSubscriptionsWith(probe, subscriptions);
}
