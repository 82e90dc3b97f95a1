import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { redact } from '../decisions/upstream';
import { HubError } from '../errors';
import type { HubContext } from '../http/context';
import { upstreamRequest, vendorUrl } from '../http/upstream-request';
import type { VendorCredential } from '../store/vendor-keys';
import { recordPull } from './record';

/*
 * The team's incremental pull of a subscription, made once for the team. An incremental live
 * pull moves the subscription's position at the vendor, so hubs on one database take turns: each
 * claims the subscription's `inbox_pulls` row (a guarded UPDATE: one claimant at a time, whatever
 * the process) for as long as the pull takes, and a claim left by a killed hub runs out. A pull
 * whose answer never arrived (no answer, a 5xx, a body that is not JSON, a kill mid-pull) is
 * marked `lost`; the claimant then re-reads from the beginning and keeps only what the inbox
 * does not hold and nobody has decided, as the console's Recover does.
 */

/** How long a claim lasts without renewal: longer than one vendor request (30 s) may take. */
const PULL_CLAIM_MS = 45_000;
const UPSTREAM_TIMEOUT_MS = 30_000;
/** Pages a recovery reads at most (200 items each). */
const RECOVER_PAGES = 1_000;

const claimMs = (ctx: HubContext) => ctx.pullClaimMs ?? PULL_CLAIM_MS;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Takes the subscription's pull claim when free or run out; whether a pull before it was lost. Null: another holds it. */
async function claim(ctx: HubContext, subscriptionId: string, claimId: string): Promise<{ lost: boolean } | null> {
  const now = Date.now();
  return ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('inbox_pulls')
      .values({ subscription_id: subscriptionId })
      .onConflict((oc) => oc.column('subscription_id').doNothing())
      .execute();
    // A claim taken over after it ran out was a hub that died mid-pull: its answer is lost.
    const row = await trx
      .updateTable('inbox_pulls')
      .set({
        claim_id: claimId,
        claimed_until: now + claimMs(ctx),
        lost: sql<number>`case when claim_id is not null then 1 else lost end`,
      })
      .where('subscription_id', '=', subscriptionId)
      .where((eb) => eb.or([eb('claim_id', 'is', null), eb('claimed_until', '<', now)]))
      .returning('lost')
      .executeTakeFirst();
    return row ? { lost: Number(row.lost) === 1 } : null;
  });
}

async function renew(ctx: HubContext, subscriptionId: string, claimId: string) {
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('inbox_pulls')
      .set({ claimed_until: Date.now() + claimMs(ctx) })
      .where('subscription_id', '=', subscriptionId)
      .where('claim_id', '=', claimId)
      .execute(),
  );
}

async function release(ctx: HubContext, subscriptionId: string, claimId: string, lost: boolean, pulled: boolean) {
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('inbox_pulls')
      .set({ claim_id: null, claimed_until: null, lost: lost ? 1 : 0, ...(pulled ? { last_pulled_at: Date.now() } : {}) })
      .where('subscription_id', '=', subscriptionId)
      .where('claim_id', '=', claimId)
      .execute(),
  );
}

/** What one incremental pull did: `moved` when the vendor may have moved the position without the hub keeping the items. */
interface PullOutcome<T> {
  value: T;
  lost: boolean;
}

/**
 * Runs `pull` holding the subscription's claim, waiting for another hub's (or request's) pull
 * first. A lost answer before it is recovered first; one lost by `pull` (it returns `lost`, or
 * throws) is recovered straight after, so the team still gets the items.
 */
export async function withTeamPull<T>(
  ctx: HubContext,
  subscriptionId: string,
  credential: VendorCredential,
  pull: () => Promise<PullOutcome<T>>,
  lostOnThrow: (error: unknown) => boolean,
): Promise<T> {
  const claimId = randomUUID();
  const deadline = Date.now() + claimMs(ctx) + 5_000;
  let taken = await claim(ctx, subscriptionId, claimId);
  while (!taken) {
    if (Date.now() > deadline)
      throw new HubError('PULL_BUSY', `another pull of subscription ${subscriptionId} is under way: try again`, { 'Retry-After': '5' });
    await sleep(50);
    taken = await claim(ctx, subscriptionId, claimId);
  }
  let lost = taken.lost;
  let pulled = false;
  try {
    if (lost) lost = !(await recoverSafely(ctx, subscriptionId, credential, claimId));
    let outcome: PullOutcome<T>;
    try {
      outcome = await pull();
    } catch (error) {
      if (lostOnThrow(error)) lost = !(await recoverSafely(ctx, subscriptionId, credential, claimId));
      throw error;
    }
    pulled = true;
    if (outcome.lost) lost = !(await recoverSafely(ctx, subscriptionId, credential, claimId));
    return outcome.value;
  } finally {
    await release(ctx, subscriptionId, claimId, lost, pulled).catch((error: unknown) =>
      ctx.log?.(`hub: the pull claim of ${subscriptionId} was not released (${(error as Error).message}); it runs out in ${claimMs(ctx)} ms`),
    );
  }
}

async function recoverSafely(ctx: HubContext, subscriptionId: string, credential: VendorCredential, claimId: string): Promise<boolean> {
  try {
    const added = await recover(ctx, subscriptionId, credential, claimId);
    ctx.log?.(`hub: recovered subscription ${subscriptionId} after a lost pull answer: ${added} item(s) kept`);
    return true;
  } catch (error) {
    ctx.log?.(`hub: recovering subscription ${subscriptionId} failed (${(error as Error).message}); the next pull tries again`);
    return false;
  }
}

/** A GET to the vendor with the key: its status and parsed body (redacted), or throws. */
async function vendorGet(ctx: HubContext, credential: VendorCredential, path: string): Promise<{ status: number; body: unknown }> {
  if (!ctx.upstream) throw new HubError('NO_UPSTREAM', 'this hub forwards to no Data Delivery Service');
  const response = await upstreamRequest(vendorUrl(ctx.upstream, `/v1${path}`), {
    method: 'GET',
    headers: { Authorization: `Bearer ${credential.key}`, Accept: 'application/json' },
    signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    // An incremental pull moves the position: a lost one is recovered by a re-read, never sent again.
    repeatable: !path.startsWith('/live/pull'),
  });
  if (response.status >= 300 && response.status < 400) {
    response.discard();
    throw new HubError('UPSTREAM_BAD_RESPONSE', `the vendor answered ${path} with a redirect`);
  }
  const text = redact(await response.text(), credential);
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new HubError('UPSTREAM_BAD_RESPONSE', `the vendor answered ${path} ${response.status} with a body that is not JSON`);
  }
}

/** The items and paging of a live pull answer, in either of its forms (spec 4.6). */
function livePage(body: unknown): { items: unknown[]; hasMore: boolean; nextCursor: string | null } {
  const outer = (body ?? {}) as { data?: unknown; has_more?: unknown; next_cursor?: unknown };
  const inner = (Array.isArray(outer.data) ? outer : (outer.data ?? {})) as { items?: unknown; data?: unknown; has_more?: unknown; next_cursor?: unknown };
  const items = Array.isArray(outer.data) ? outer.data : Array.isArray(inner.items) ? inner.items : [];
  return { items, hasMore: inner.has_more === true, nextCursor: typeof inner.next_cursor === 'string' ? inner.next_cursor : null };
}

/**
 * Re-reads the subscription from the beginning (a re-read does not move the position) and keeps
 * each item the inbox does not hold and on which no decision is recorded. Returns how many it kept.
 */
async function recover(ctx: HubContext, subscriptionId: string, credential: VendorCredential, claimId: string): Promise<number> {
  let cursor: string | null = null;
  let kept = 0;
  for (let page = 0; page < RECOVER_PAGES; page++) {
    const query = new URLSearchParams({ subscription_id: subscriptionId, limit: '200', from: 'beginning' });
    if (cursor) query.set('cursor', cursor);
    const { status, body } = await vendorGet(ctx, credential, `/live/pull?${query}`);
    if (status >= 300) throw new Error(`the vendor answered the re-read ${status}`);
    const { hasMore, nextCursor } = livePage(body);
    kept += await recordPull(ctx, { id: null, via: 'system' }, '/live/pull', subscriptionId, 'recover', status, body, (all) =>
      all.filter((item) => !(item as { consumer_feedback?: unknown } | null)?.consumer_feedback),
    );
    await renew(ctx, subscriptionId, claimId);
    if (!hasMore || !nextCursor) break;
    cursor = nextCursor;
  }
  return kept;
}

/** The hub's own scheduled pull of a subscription: every page the vendor has, as `schedule`. */
export async function scheduledPull(ctx: HubContext, subscriptionId: string, kind: 'live' | 'simulated', credential: VendorCredential): Promise<number> {
  const path = kind === 'live' ? '/live/pull' : '/data/pull';
  return withTeamPull(
    ctx,
    subscriptionId,
    credential,
    async () => {
      let kept = 0;
      // A simulated pull lists the pending items (no paging); a live one pages until the vendor has no more.
      for (let page = 0; page < (kind === 'live' ? 50 : 1); page++) {
        let answer: { status: number; body: unknown };
        try {
          answer = await vendorGet(ctx, credential, `${path}?subscription_id=${encodeURIComponent(subscriptionId)}&limit=200`);
        } catch (error) {
          return { value: kept, lost: kind === 'live' && !(error instanceof HubError && error.code === 'NO_UPSTREAM') };
        }
        if (answer.status >= 500) return { value: kept, lost: kind === 'live' };
        kept += await recordPull(ctx, { id: null, via: 'system' }, path, subscriptionId, 'schedule', answer.status, answer.body);
        if (answer.status >= 300 || kind !== 'live' || !livePage(answer.body).hasMore) break;
      }
      return { value: kept, lost: false };
    },
    () => kind === 'live',
  );
}
