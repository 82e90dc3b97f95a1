import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { sql, type Kysely } from 'kysely';
import type { HubTables } from '../db/schema';
import { shaped } from '../db/shaped';
import { inOrder } from '../db/in-order';
import { acceptDecision } from '../decisions/accept';
import { redact } from '../decisions/upstream';
import { HubError } from '../errors';
import { allow, SESSION_COOKIE } from '../http/auth';
import { upstreamRequest, vendorUrl, type UpstreamResponse } from '../http/upstream-request';
import type { ForwardReads, HubContext, HubEnv, ItemSeen, Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import { recordPull } from '../inbox/record';
import { PAGE_MAX, withTeamPull } from '../inbox/team-pull';
import type { ArrivedHow } from '../store/inbox';
import { vendorKeyFor, vendorKeysStatement, type VendorKeyRow } from '../store/vendor-keys';
import { sessionLookup } from '../store/sessions';

/*
 * /v1 through the hub: a signed-in member (or a personal access token) calls the vendor's own
 * paths; the hub checks the role, the token's scope and subscriptions, sends the request on with
 * the vendor key it holds, and records pulls and decisions in the audit log. The member's cookie
 * and Authorization never leave; of the vendor's answer only headers that describe it come back,
 * and the key or JWT, should the vendor echo either, is cut out of the body.
 */

const UPSTREAM_TIMEOUT_MS = 30_000;

/** Headers of the vendor's answer handed on: none can carry a credential. */
const RESPONSE_HEADERS = ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const DECISION = /^\/(data|live)\/items\/([^/]+)\/(adopt|dispute)$/;
const PULL = /^\/(data|live)\/pull$/;
/** A delivery's items (4.14): kept in the inbox too, under the delivery's subscription. */
const DELIVERY_ITEMS = /^\/data\/deliveries\/([^/]+)\/items$/;
/** The one endpoint that takes the dashboard JWT instead of the API key (spec 5.3). */
const PREVIEW = /^\/frontiers\/[^/]+\/tasks\/[^/]+\/preview$/;

interface Request {
  path: string;
  decision: { family: 'data' | 'live'; itemId: string; action: 'adopt' | 'dispute' } | null;
  pull: boolean;
  /** How the items of this read arrive in the team's inbox (null: it delivers none). */
  arrival: ArrivedHow | null;
  subscriptionId: string | null;
  /** The price the hub saw when the item was pulled through it (simulated items). */
  priceMicros: number | null;
  /** A simulated item the hub has delivered (pulled, kept in the inbox, or decided and sent); true for anything else. */
  delivered: boolean;
  reason: string | null;
  body: string | undefined;
}

const isJson = (type: string | null) => !!type && /^application\/([a-z0-9.+-]*\+)?json\b/i.test(type);

export function forwardRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.all('/*', async (c) => {
    const reads = c.get('forwardReads') ?? startReads(ctx, c);
    const vendorKeys = reads.vendorKeys;
    const request = await describe(ctx, c, reads.seen);
    const decide = request.decision !== null;
    let principal: Principal | null = c.get('principal');
    try {
      principal = authorize(c, request);
    } catch (error) {
      // A refused decision is worth a row: who tried to adopt what.
      if (decide && principal && error instanceof HubError) await audit(ctx, principal, request, error.code);
      throw error;
    }
    if (request.decision) {
      // Adopts and disputes go through the hub's durable queue (server/hub/decisions/).
      const { family, itemId, action } = request.decision;
      if (family === 'data' && action === 'adopt' && !request.delivered) {
        // An adopt is charged at the item's price, which the hub learns only from delivering it: one
        // it never delivered would be spent blind (held under any limit as `price_unknown`, one hold
        // per ID anyone types, with no subscription to count it against), or with no limit set spent
        // uncounted. Refused instead, before anything is kept or sent: nobody is charged by surprise.
        await audit(ctx, principal, request, 'ITEM_NOT_DELIVERED');
        throw new HubError(
          'ITEM_NOT_DELIVERED',
          `item ${itemId} was never delivered through this hub: pull it first (its subscription's pull through the hub), so the team's budgets know its price`,
        );
      }
      const { subscriptionId, priceMicros, reason, body } = request;
      const answer = await acceptDecision(ctx, principal, { family, itemId, kind: action, subscriptionId, priceMicros, reason, body, vendorKeys });
      return c.json(answer.body as object, answer.status as 200);
    }
    if (!ctx.upstream) throw new HubError('NO_UPSTREAM', 'this hub forwards to no Data Delivery Service: start it with --upstream URL (or --demo)');
    const credential = await vendorKeyFor(ctx.db, ctx.cipher, request.subscriptionId, vendorKeys);
    if (!credential) {
      const what =
        request.subscriptionId === null
          ? 'for requests not tied to a subscription (one covering every subscription, *)'
          : `for subscription ${request.subscriptionId}`;
      throw new HubError('NO_VENDOR_KEY', `the hub holds no vendor key ${what}: an admin adds one (npm run hub -- vendor-keys add)`);
    }
    const bearer = PREVIEW.test(request.path) ? credential.jwt : credential.key;
    if (bearer === null) throw new HubError('NO_VENDOR_KEY', `the vendor key ${credential.name} has no JWT, which ${request.path} needs: rotate it with one`);

    const forwardOnce = async () => {
      const answer = await send(ctx, c, request, bearer);
      const text = redact(answer.text, credential);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw upstreamFailure(ctx, c, 'UPSTREAM_BAD_RESPONSE', `answered ${answer.status} with a body that is not JSON`);
      }
      if (request.arrival === 'delivery' && answer.status < 300) request.subscriptionId = await deliverySubscription(ctx, c, request.path, bearer);
      if (request.pull || (request.arrival === 'delivery' && request.subscriptionId !== null)) await record(ctx, principal, request, answer.status, parsed);
      const headers = new Headers({ 'Content-Type': 'application/json' });
      for (const name of RESPONSE_HEADERS) {
        const value = answer.header(name);
        if (value !== null && name !== 'content-type') headers.set(name, value);
      }
      return new Response(text, { status: answer.status, headers });
    };
    // An incremental live pull moves the subscription for the whole team: one at a time across
    // hubs, and a lost answer recovered by the hub (server/hub/inbox/team-pull.ts).
    if (request.arrival === 'pull' && request.path === '/live/pull' && request.subscriptionId !== null) {
      return withTeamPull(
        ctx,
        request.subscriptionId,
        credential,
        async () => {
          const response = await forwardOnce();
          return { value: response, lost: response.status >= 500 ? pageSize(c) : 0 };
        },
        () => pageSize(c),
      );
    }
    return forwardOnce();
  });

  return router;
}

/**
 * Starts /v1's own reads before who is asking is known (mounted ahead of `identify`), with the
 * session cookie's lookup in the same batch: on PostgreSQL one round trip on one pooled connection
 * before the transaction (two connections at once woke two idle server processes, and on this
 * kind of VM each wake costs about as much as the query). `identify` takes the session from it.
 * Only for a request carrying a credential (a cookie or Authorization): one without is refused
 * before anything else is read. What it read is not used, nor any of it answered, unless the
 * request is then allowed (`authorize`); a lookup is a read, and a bad cookie finds no session.
 */
export function prefetchForward(ctx: HubContext) {
  return createMiddleware<HubEnv>(async (c, next) => {
    if (c.req.header('Cookie') !== undefined || c.req.header('Authorization') !== undefined) c.set('forwardReads', startReads(ctx, c));
    return next();
  });
}

function startReads(ctx: HubContext, c: Context<HubEnv>): ForwardReads {
  const path = c.req.path.replace(/^\/v1/, '');
  const match = c.req.method === 'POST' ? DECISION.exec(path) : null;
  const cookie = getCookie(c, SESSION_COOKIE);
  const session = cookie === undefined ? null : sessionLookup(ctx.db, cookie);
  const itemId = match?.[1] === 'data' ? safeDecode(match[2]!) : null;
  // The session, the vendor keys and a simulated decision's item in one round trip on PostgreSQL, on
  // one pooled connection: one idle server process woken per request, not two (docs/hub.md).
  const all = inOrder(ctx.db, [session?.statement ?? null, vendorKeysStatement(ctx.db, {}), itemId === null ? null : itemSeenStatement(ctx.db, { itemId })]);
  const reads: ForwardReads = {
    vendorKeys: all.then(([, keys]) => keys!.rows as VendorKeyRow[]),
    seen: itemId === null ? null : all.then(([, , seen]) => seen!.rows[0] as ItemSeen | undefined),
    ...(session && { session: all.then(([found]) => session.found(found!.rows)) }),
  };
  // Unused when the request is refused first: their failure is then nobody's to report.
  reads.vendorKeys.catch(() => undefined);
  reads.seen?.catch(() => undefined);
  reads.session?.catch(() => undefined);
  return reads;
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * A simulated item's path names no subscription: the hub knows it, and the price, from the pull
 * that brought the item (`pulled_items`); pruned after 30 days (store/pulled-items.ts), or
 * delivered some other way (a delivery's items), the team's inbox keeps it; pruned once its
 * decision was sent, a repeat is known from the decision, and so is a hold kept from before this
 * check (a retry of it gets the hold's answer, not a 404).
 */
export const itemSeenQuery = (db: Kysely<HubTables>, itemId: string) =>
  db
    .selectFrom('pulled_items')
    .select([sql<number>`1`.as('source'), sql<string | null>`subscription_id`.as('subscription_id'), 'price_micros'])
    .where('item_id', '=', itemId)
    .unionAll(
      db
        .selectFrom('inbox_items')
        .select([sql<number>`2`.as('source'), 'subscription_id', 'price_micros'])
        .where('family', '=', 'data')
        .where('item_id', '=', itemId),
    )
    .unionAll(
      db
        .selectFrom('decisions')
        .select([sql<number>`3`.as('source'), 'subscription_id', 'price_micros'])
        .where('family', '=', 'data')
        .where('item_id', '=', itemId),
    )
    .orderBy('source')
    .limit(1);

/** The same compiled once (db/shaped.ts): every simulated decision reads it. */
const itemSeenStatement = shaped(['itemId'], (db, v: { itemId: string }) => itemSeenQuery(db, v.itemId));

/** itemSeenQuery's answer: the first source that knows the item, in that order; undefined for none. */
const itemSeen = async (ctx: HubContext, itemId: string) => (await ctx.db.executeQuery(itemSeenStatement(ctx.db, { itemId }))).rows[0] as ItemSeen | undefined;

/** How many items a live pull asked for (spec 4.6: 1 to 200, 50 by default): what a lost answer may have taken. */
function pageSize(c: Context<HubEnv>): number {
  const limit = Number(c.req.query('limit') ?? 50);
  return Number.isInteger(limit) && limit >= 1 ? Math.min(limit, PAGE_MAX) : PAGE_MAX;
}

/** What is asked: the path after /v1, whether it decides or pulls, and the subscription it concerns. */
async function describe(ctx: HubContext, c: Context<HubEnv>, seenRead: ForwardReads['seen']): Promise<Request> {
  const path = c.req.path.replace(/^\/v1/, '');
  const match = c.req.method === 'POST' ? DECISION.exec(path) : null;
  const decision = match ? { family: match[1] as 'data' | 'live', itemId: decodeURIComponent(match[2]!), action: match[3] as 'adopt' | 'dispute' } : null;
  if (!decision && c.req.method !== 'GET' && !(c.req.method === 'POST' && path === '/auth/verify-key')) {
    throw new HubError('NOT_FOUND', `the hub forwards no ${c.req.method} ${c.req.path}`);
  }
  const body = c.req.method === 'POST' ? await c.req.text() : undefined;
  let subscriptionId = c.req.query('subscription_id') ?? null;
  let priceMicros: number | null = null;
  let delivered = true;
  let reason: string | null = null;
  if (decision?.family === 'live' && body) {
    try {
      const json = JSON.parse(body) as { subscription_id?: unknown; reason?: unknown };
      if (typeof json.subscription_id === 'string') subscriptionId = json.subscription_id;
      if (typeof json.reason === 'string') reason = json.reason.slice(0, 2000);
    } catch {
      /* the vendor answers a bad body with its own 400 */
    }
  }
  if (decision?.family === 'data') {
    // A simulated item's path names no subscription: the hub knows it from the pull that brought the item.
    const seen = await (seenRead ?? itemSeen(ctx, decision.itemId));
    subscriptionId = seen?.subscription_id ?? null;
    priceMicros = seen?.price_micros ?? null;
    delivered = seen !== undefined;
  }
  const pull = c.req.method === 'GET' && PULL.test(path);
  const query = new URL(c.req.url).searchParams;
  const arrival: ArrivedHow | null = !pull
    ? c.req.method === 'GET' && DELIVERY_ITEMS.test(path)
      ? 'delivery'
      : null
    : path === '/data/pull'
      ? 'pending'
      : query.has('from') || query.has('cursor')
        ? 'reread'
        : 'pull';
  return { path, decision, pull, arrival, subscriptionId, priceMicros, delivered, reason, body: body || undefined };
}

/**
 * The subscription of a delivery whose items were read (4.14 names none): from the vendor's list
 * of deliveries (4.13). Null when it is not listed or cannot be read; the items are then only
 * handed on, as before the inbox.
 */
async function deliverySubscription(ctx: HubContext, c: Context<HubEnv>, path: string, bearer: string): Promise<string | null> {
  const deliveryId = decodeURIComponent(DELIVERY_ITEMS.exec(path)![1]!);
  try {
    const response = await upstreamRequest(vendorUrl(ctx.upstream!, '/v1/data/deliveries?limit=200'), {
      method: 'GET',
      headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' },
      signal: AbortSignal.any([AbortSignal.timeout(UPSTREAM_TIMEOUT_MS), c.req.raw.signal]),
      repeatable: true,
    });
    if (response.status !== 200 || !isJson(response.header('content-type'))) {
      response.discard();
      return null;
    }
    const list = (JSON.parse(await response.text()) as { data?: unknown }).data;
    const found = Array.isArray(list) ? (list as { delivery_id?: unknown; subscription_id?: unknown }[]).find((d) => d?.delivery_id === deliveryId) : undefined;
    return typeof found?.subscription_id === 'string' ? found.subscription_id : null;
  } catch {
    return null;
  }
}

/**
 * An incremental live pull ("Pull new"): it moves the subscription forward for the whole team and
 * spends the vendor's position, so it is work, not a read. A re-read (`from`, `cursor`) and a
 * simulated pull move nothing and stay reads.
 */
const movesTheTeam = (request: Request) => request.arrival === 'pull' && request.path === '/live/pull';

/**
 * Role, token scope and token subscriptions: reads for everyone signed in; decisions and the team's
 * "Pull new" for reviewers and admins (with a token, scope decide).
 */
function authorize(c: Context<HubEnv>, request: Request): Principal {
  const decide = request.decision !== null;
  const principal = allow(c, { token: true });
  const token = principal.token;
  if ((decide || movesTheTeam(request)) && principal.member.role === 'viewer') {
    throw new HubError(
      'FORBIDDEN',
      decide
        ? 'this needs the role admin or reviewer; you are viewer'
        : 'a viewer cannot pull new items: “Pull new” moves the subscription forward for the whole team; reviewers and admins pull, and what they pull is in the team’s inbox (GET /hub/v1/inbox)',
    );
  }
  if (!token) return principal;
  if (decide && token.scope !== 'decide') throw new HubError('FORBIDDEN', 'this access token has scope read: it cannot adopt or dispute');
  if (movesTheTeam(request) && token.scope !== 'decide') {
    throw new HubError(
      'FORBIDDEN',
      'this access token has scope read: it cannot pull new items (that moves the subscription forward for the whole team); a re-read (from=beginning) is a read',
    );
  }
  const covered = JSON.parse(token.subscriptions) as string[];
  if (covered.includes('*')) return principal;
  if (request.subscriptionId === null) {
    throw new HubError(
      'FORBIDDEN',
      request.decision?.family === 'data'
        ? 'this access token is limited to some subscriptions, and the hub has not seen this item in a pull through it: pull it first'
        : 'this access token is limited to some subscriptions: this request is not tied to one of them',
    );
  }
  if (!covered.includes(request.subscriptionId)) throw new HubError('FORBIDDEN', `this access token does not cover subscription ${request.subscriptionId}`);
  return principal;
}

async function send(ctx: HubContext, c: Context<HubEnv>, request: Request, bearer: string) {
  const target = vendorUrl(ctx.upstream!, `/v1${request.path}${new URL(c.req.url).search}`);
  // Only what the interface uses: the member's cookie, Authorization and anything else stay here.
  const headers: Record<string, string> = { Authorization: `Bearer ${bearer}`, Accept: 'application/json' };
  if (request.body !== undefined) headers['Content-Type'] = c.req.header('Content-Type') ?? 'application/json';
  let response: UpstreamResponse;
  let text: string;
  try {
    response = await upstreamRequest(target, {
      method: c.req.method,
      headers,
      body: request.body,
      signal: AbortSignal.any([AbortSignal.timeout(UPSTREAM_TIMEOUT_MS), c.req.raw.signal]),
      // An incremental pull moves the subscription's position: never sent twice.
      repeatable: request.path !== '/live/pull',
    });
    // The interface never redirects: following one would send the vendor key somewhere else.
    if (response.status >= 300 && response.status < 400) {
      response.discard();
      throw upstreamFailure(ctx, c, 'UPSTREAM_BAD_RESPONSE', `answered with a redirect (HTTP ${response.status}), which the interface never does`);
    }
    if (!isJson(response.header('content-type'))) {
      response.discard();
      throw upstreamFailure(ctx, c, 'UPSTREAM_BAD_RESPONSE', `answered ${response.status} with something that is not JSON`);
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof HubError) throw error;
    if ((error as Error).name === 'TimeoutError') throw upstreamFailure(ctx, c, 'UPSTREAM_TIMEOUT', `did not answer within ${UPSTREAM_TIMEOUT_MS} ms`);
    throw upstreamFailure(ctx, c, 'UPSTREAM_UNREACHABLE', 'cannot be reached', reasonOf(error));
  }
  return { status: response.status, header: response.header, text };
}

function upstreamFailure(
  ctx: HubContext,
  c: Context<HubEnv>,
  code: 'UPSTREAM_UNREACHABLE' | 'UPSTREAM_BAD_RESPONSE' | 'UPSTREAM_TIMEOUT',
  what: string,
  detail?: string,
) {
  const origin = new URL(ctx.upstream!).origin;
  ctx.log?.(`hub: ${c.req.method} ${c.req.path} → ${code} (upstream ${origin} ${what}${detail ? `: ${detail}` : ''})`);
  return new HubError(code, `the Data Delivery Service at ${origin} ${what}`);
}

function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : cause instanceof Error ? cause.name : 'network error';
}

/** A pull: one audit row (count, receipt), and the simulated items' prices kept for later decisions. */
async function record(ctx: HubContext, principal: Principal, request: Request, status: number, body: unknown) {
  await recordPull(ctx, { id: principal.member.id, via: principal.via }, request.path, request.subscriptionId, request.arrival, status, body);
}

function audit(ctx: HubContext, principal: Principal, request: Request, outcome: string) {
  const decision = request.decision!;
  return ctx.db.transaction().execute((trx) =>
    appendAudit(trx, {
      actorId: principal.member.id,
      via: principal.via,
      action: `v1.${decision.action}`,
      target: request.path,
      subscriptionId: request.subscriptionId,
      itemId: decision.itemId,
      amountMicros: decision.action === 'adopt' ? request.priceMicros : null,
      reason: request.reason,
      outcome,
    }),
  );
}
