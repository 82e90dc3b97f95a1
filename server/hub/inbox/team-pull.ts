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
 * counted in `lost` as the items it may have taken; the claimant then re-reads from the beginning
 * and keeps, of that many items past the position the hub last saw (`position_item`), those the
 * inbox does not hold and nobody has decided. The console's Recover keeps every item it lacks:
 * one browser may never have pulled the subscription, but the team's inbox has seen every page
 * the vendor delivered, so the rest of the history is not what was lost.
 */

/** How long a claim lasts without renewal: longer than one vendor request (30 s) may take. */
const PULL_CLAIM_MS = 45_000;
const UPSTREAM_TIMEOUT_MS = 30_000;
/** Pages a recovery reads at most (200 items each). */
const RECOVER_PAGES = 1_000;
/** The most items one live page holds (spec 4.6): what a lost answer of unknown size may have taken. */
export const PAGE_MAX = 200;

const claimMs = (ctx: HubContext) => ctx.pullClaimMs ?? PULL_CLAIM_MS;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Takes the subscription's pull claim when free or run out; how many items lost pulls before it may have taken. Null: another holds it. */
async function claim(ctx: HubContext, subscriptionId: string, claimId: string): Promise<{ lost: number } | null> {
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
        lost: sql<number>`case when claim_id is not null then lost + ${PAGE_MAX} else lost end`,
      })
      .where('subscription_id', '=', subscriptionId)
      .where((eb) => eb.or([eb('claim_id', 'is', null), eb('claimed_until', '<', now)]))
      .returning('lost')
      .executeTakeFirst();
    return row ? { lost: Number(row.lost) } : null;
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

async function release(ctx: HubContext, subscriptionId: string, claimId: string, lost: number, pulled: boolean) {
  await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('inbox_pulls')
      .set({ claim_id: null, claimed_until: null, lost, ...(pulled ? { last_pulled_at: Date.now() } : {}) })
      .where('subscription_id', '=', subscriptionId)
      .where('claim_id', '=', claimId)
      .execute(),
  );
}

/** What one incremental pull did: `lost`, how many items the vendor may have moved past without the hub keeping them (0: none). */
interface PullOutcome<T> {
  value: T;
  lost: number;
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
  lostOnThrow: (error: unknown) => number,
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
  // What is still to recover: a recovery that fails keeps its count, and a pull lost after it adds to it.
  let lost = taken.lost;
  let pulled = false;
  const recoverIfLost = async () => {
    if (lost > 0 && (await recoverSafely(ctx, subscriptionId, credential, claimId, lost))) lost = 0;
  };
  try {
    await recoverIfLost();
    let outcome: PullOutcome<T>;
    try {
      outcome = await pull();
    } catch (error) {
      lost += lostOnThrow(error);
      await recoverIfLost();
      throw error;
    }
    pulled = true;
    lost += outcome.lost;
    await recoverIfLost();
    return outcome.value;
  } finally {
    await release(ctx, subscriptionId, claimId, lost, pulled).catch((error: unknown) =>
      ctx.log?.(`hub: the pull claim of ${subscriptionId} was not released (${(error as Error).message}); it runs out in ${claimMs(ctx)} ms`),
    );
  }
}

async function recoverSafely(ctx: HubContext, subscriptionId: string, credential: VendorCredential, claimId: string, lost: number): Promise<boolean> {
  try {
    const added = await recover(ctx, subscriptionId, credential, claimId, lost);
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
 * Re-reads the subscription from the beginning (a re-read does not move the position) and keeps,
 * of the `lost` items past the position the hub last saw, each the inbox does not hold and on
 * which no decision is recorded; the position then moves past them. The re-read lists items in
 * the order incremental pulls deliver them. With no position known (the hub never kept a live
 * page of this subscription) or one the re-read no longer lists, it keeps every such item, as
 * the console's Recover does: more than was lost, never less. Returns how many it kept.
 */
async function recover(ctx: HubContext, subscriptionId: string, credential: VendorCredential, claimId: string, lost: number): Promise<number> {
  const position = (await ctx.db.selectFrom('inbox_pulls').select('position_item').where('subscription_id', '=', subscriptionId).executeTakeFirst())
    ?.position_item;
  const bounded = await reread(ctx, subscriptionId, credential, claimId, position ? { after: position, count: lost } : null);
  return bounded ?? (await reread(ctx, subscriptionId, credential, claimId, null))!;
}

const undecided = (items: unknown[]) => items.filter((item) => !(item as { consumer_feedback?: unknown } | null)?.consumer_feedback);
const idOf = (item: unknown) => (item as { submission_id?: unknown } | null)?.submission_id;

/** One pass of a recovery: every item (`window` null) or `count` items after `after`. Null: `after` was not listed. */
async function reread(
  ctx: HubContext,
  subscriptionId: string,
  credential: VendorCredential,
  claimId: string,
  window: { after: string; count: number } | null,
): Promise<number | null> {
  let cursor: string | null = null;
  let kept = 0;
  let passed = window === null;
  let left = window?.count ?? Infinity;
  let last: string | null = null;
  for (let page = 0; page < RECOVER_PAGES && left > 0; page++) {
    const query = new URLSearchParams({ subscription_id: subscriptionId, limit: String(PAGE_MAX), from: 'beginning' });
    if (cursor) query.set('cursor', cursor);
    const { status, body } = await vendorGet(ctx, credential, `/live/pull?${query}`);
    if (status >= 300) throw new Error(`the vendor answered the re-read ${status}`);
    const { hasMore, nextCursor } = livePage(body);
    kept += await recordPull(ctx, { id: null, via: 'system' }, '/live/pull', subscriptionId, 'recover', status, body, (all) => {
      let from = 0;
      if (!passed) {
        const at = all.findIndex((item) => idOf(item) === window!.after);
        if (at < 0) return [];
        passed = true;
        from = at + 1;
      }
      const taken = all.slice(from, from + left);
      left -= taken.length;
      const end = idOf(taken[taken.length - 1]);
      if (typeof end === 'string') last = end;
      return undecided(taken);
    });
    await renew(ctx, subscriptionId, claimId);
    if (!hasMore || !nextCursor) break;
    cursor = nextCursor;
  }
  if (!passed) return null;
  if (window && last !== null) await movePosition(ctx, subscriptionId, last);
  return kept;
}

/** Notes the last item of a live page the hub kept (or recovered): the vendor's position as far as the hub knows. */
async function movePosition(ctx: Pick<HubContext, 'db'>, subscriptionId: string, itemId: string) {
  await ctx.db.updateTable('inbox_pulls').set({ position_item: itemId }).where('subscription_id', '=', subscriptionId).execute();
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
          answer = await vendorGet(ctx, credential, `${path}?subscription_id=${encodeURIComponent(subscriptionId)}&limit=${PAGE_MAX}`);
        } catch (error) {
          return { value: kept, lost: kind === 'live' && !(error instanceof HubError && error.code === 'NO_UPSTREAM') ? PAGE_MAX : 0 };
        }
        if (answer.status >= 500) return { value: kept, lost: kind === 'live' ? PAGE_MAX : 0 };
        kept += await recordPull(ctx, { id: null, via: 'system' }, path, subscriptionId, 'schedule', answer.status, answer.body);
        if (answer.status >= 300 || kind !== 'live' || !livePage(answer.body).hasMore) break;
      }
      return { value: kept, lost: 0 };
    },
    () => (kind === 'live' ? PAGE_MAX : 0),
  );
}
