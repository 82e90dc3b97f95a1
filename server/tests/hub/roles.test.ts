import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from './event-stream';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';
import { seedInbox } from './inbox-fixture';

/*
 * The role matrix: every hub endpoint, called by each kind of caller, answers the status its rule
 * gives. Each call gets fresh targets (a member to change, a token to revoke, a session to end),
 * so no row depends on another.
 */

const CALLERS = ['admin', 'reviewer', 'viewer', 'anonymous', 'admin-token', 'reviewer-token', 'viewer-token'] as const;
type Caller = (typeof CALLERS)[number];

interface Row {
  name: string;
  /** The request, given a fresh setup for this caller. */
  request: (t: TestHub, as: CallOptions) => Promise<{ method: string; path: string; body?: unknown }>;
  expect: Record<Caller, number>;
}

const fresh = { n: 0 };
const newMember = async (t: TestHub, admin: string) =>
  (await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email: `matrix${fresh.n++}@demo.hub`, role: 'reviewer', password: 'matrix-password-1' } }))
    .body.member.id as string;

/** A fresh lot drawn by the admin on a team subscription of its own (the one this row sets). */
const lotValue = {
  version: 1,
  kind: 'simulated',
  source: { kind: 'delivery', deliveryId: 'd1', description: 'Delivery d1' },
  itemIds: ['i1', 'i2'],
  plan: { kind: 'zero-acceptance', lotSize: 2, confidencePct: 95, defectRateBp: 500, sampleSize: 1, assumedDefects: 0, binomialSize: 1, formula: 'f' },
  sampleIds: ['i1'],
  extensions: [],
  action: null,
};
const newLot = async (t: TestHub, admin: string) => {
  await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: [{ id: 'sub_lots', kind: 'simulated' }] } });
  const id = `lot_matrix_${fresh.n++}`;
  const made = await t.call('POST', '/hub/v1/lots', { cookie: admin, body: { id, subscription_id: 'sub_lots', value: lotValue } });
  if (made.status !== 201) throw new Error(made.text);
  return id;
};

/** The team queue's subscription with one fresh item in its inbox; a batch of it taken by `as` (reviewer, admin) or by the admin. */
const queueItem = async (t: TestHub, admin: string) => {
  await t.call('PUT', '/hub/v1/subscriptions', { cookie: admin, body: { subscriptions: [{ id: 'sub_queue', kind: 'simulated' }] } });
  await seedInbox(t.hub.store.db, 'sub_queue', [{ item_id: `queue_item_${fresh.n++}` }]);
};
const takenBatch = async (t: TestHub, admin: string, as: CallOptions) => {
  await queueItem(t, admin);
  const take = (cookie: string) => t.call('POST', '/hub/v1/queue/take', { cookie, body: { subscription_id: 'sub_queue', size: 1 } });
  // The caller's own batch when it may take one; else the admin's (the call is refused on its role first).
  const own = as.cookie ? await take(as.cookie) : undefined;
  return (own?.status === 200 ? own : await take(admin)).body.batch.id as string;
};

const ROWS = (adminCookie: () => string): Row[] => [
  {
    name: 'POST /hub/v1/session',
    request: async (t) => ({ method: 'POST', path: '/hub/v1/session', body: { email: t.accounts.reviewer2.email, password: t.accounts.reviewer2.password } }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 200, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'DELETE /hub/v1/session',
    request: async () => ({ method: 'DELETE', path: '/hub/v1/session' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/me',
    request: async () => ({ method: 'GET', path: '/hub/v1/me' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/sign-in-methods',
    request: async () => ({ method: 'GET', path: '/hub/v1/sign-in-methods' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 200, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  // Single sign-on is anyone's to start, as a password sign-in is; this hub has no provider (oidc.test.ts runs one).
  {
    name: 'GET /hub/v1/oidc/start',
    request: async () => ({ method: 'GET', path: '/hub/v1/oidc/start' }),
    expect: { admin: 404, reviewer: 404, viewer: 404, anonymous: 404, 'admin-token': 404, 'reviewer-token': 404, 'viewer-token': 404 },
  },
  {
    name: 'GET /hub/v1/oidc/callback',
    request: async () => ({ method: 'GET', path: '/hub/v1/oidc/callback?code=c&state=s' }),
    expect: { admin: 404, reviewer: 404, viewer: 404, anonymous: 404, 'admin-token': 404, 'reviewer-token': 404, 'viewer-token': 404 },
  },
  {
    name: 'GET /hub/v1/members',
    request: async () => ({ method: 'GET', path: '/hub/v1/members' }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'POST /hub/v1/members',
    request: async () => ({
      method: 'POST',
      path: '/hub/v1/members',
      body: { email: `matrix${fresh.n++}@demo.hub`, role: 'viewer', password: 'matrix-password-1' },
    }),
    expect: { admin: 201, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'PATCH /hub/v1/members/:id',
    request: async (t) => ({ method: 'PATCH', path: `/hub/v1/members/${await newMember(t, adminCookie())}`, body: { role: 'viewer' } }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'DELETE /hub/v1/members/:id',
    request: async (t) => ({ method: 'DELETE', path: `/hub/v1/members/${await newMember(t, adminCookie())}` }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'POST /hub/v1/tokens',
    request: async () => ({ method: 'POST', path: '/hub/v1/tokens', body: { name: 'matrix', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }),
    expect: { admin: 201, reviewer: 201, viewer: 201, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/tokens',
    request: async () => ({ method: 'GET', path: '/hub/v1/tokens' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/tokens?all=true',
    request: async () => ({ method: 'GET', path: '/hub/v1/tokens?all=true' }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'DELETE /hub/v1/tokens/:id (the caller’s own, or the admin’s for anonymous)',
    request: async (t, as) => {
      // A token of the caller's own member (made with a session of theirs), or the admin's for anonymous.
      const owner = as.cookie ?? (as.token ? await t.signIn(ownerOf(t, as.token)) : adminCookie());
      const made = await t.call('POST', '/hub/v1/tokens', {
        cookie: owner,
        body: { name: 'to revoke', scope: 'read', subscriptions: ['*'], expires_in_days: 1 },
      });
      return { method: 'DELETE', path: `/hub/v1/tokens/${made.body.access_token.id}` };
    },
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/audit',
    request: async () => ({ method: 'GET', path: '/hub/v1/audit' }),
    expect: { admin: 200, reviewer: 403, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/audit/export',
    request: async () => ({ method: 'GET', path: '/hub/v1/audit/export?format=jsonl&action=member.add' }),
    expect: { admin: 200, reviewer: 403, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/settings',
    request: async () => ({ method: 'GET', path: '/hub/v1/settings' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'PUT /hub/v1/settings',
    request: async () => ({ method: 'PUT', path: '/hub/v1/settings', body: { reason_codes: [{ code: 'matrix', label: 'Matrix' }] } }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/inbox',
    request: async () => ({ method: 'GET', path: '/hub/v1/inbox?subscription_id=sub_sim_retail' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/inbox/decisions',
    request: async () => ({ method: 'GET', path: '/hub/v1/inbox/decisions?subscription_id=sub_sim_retail' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/inbox/schedules',
    request: async () => ({ method: 'GET', path: '/hub/v1/inbox/schedules' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'PUT /hub/v1/inbox/schedules/:subscription_id',
    request: async (t) => {
      await t.call('PUT', '/hub/v1/subscriptions', { cookie: adminCookie(), body: { subscriptions: [{ id: 'sub_inbox', kind: 'simulated' }] } });
      return { method: 'PUT', path: '/hub/v1/inbox/schedules/sub_inbox', body: { every_minutes: null } };
    },
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/lots',
    request: async () => ({ method: 'GET', path: '/hub/v1/lots' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/lots/:id',
    request: async (t) => ({ method: 'GET', path: `/hub/v1/lots/${await newLot(t, adminCookie())}` }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'POST /hub/v1/lots',
    request: async (t) => {
      await newLot(t, adminCookie());
      return { method: 'POST', path: '/hub/v1/lots', body: { id: `lot_matrix_${fresh.n++}`, subscription_id: 'sub_lots', value: lotValue } };
    },
    expect: { admin: 201, reviewer: 201, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'PUT /hub/v1/lots/:id',
    request: async (t) => ({
      method: 'PUT',
      path: `/hub/v1/lots/${await newLot(t, adminCookie())}`,
      body: { revision: 1, value: { ...lotValue, sampleIds: ['i1', 'i2'], extensions: [{ at: 1, added: 1 }] } },
    }),
    expect: { admin: 200, reviewer: 200, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'POST /hub/v1/queue/take',
    request: async (t) => {
      await queueItem(t, adminCookie());
      return { method: 'POST', path: '/hub/v1/queue/take', body: { subscription_id: 'sub_queue', size: 1 } };
    },
    expect: { admin: 200, reviewer: 200, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'POST /hub/v1/queue/renew',
    request: async (t, as) => ({ method: 'POST', path: '/hub/v1/queue/renew', body: { batch_id: await takenBatch(t, adminCookie(), as) } }),
    expect: { admin: 200, reviewer: 200, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'POST /hub/v1/queue/release',
    request: async (t, as) => ({ method: 'POST', path: '/hub/v1/queue/release', body: { batch_id: await takenBatch(t, adminCookie(), as) } }),
    expect: { admin: 200, reviewer: 200, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/queue/counts',
    request: async (t) => {
      await queueItem(t, adminCookie());
      return { method: 'GET', path: '/hub/v1/queue/counts?subscription_id=sub_queue&quality_max=0.6' };
    },
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/queue/settings',
    request: async (t) => {
      await queueItem(t, adminCookie());
      return { method: 'GET', path: '/hub/v1/queue/settings?subscription_id=sub_queue' };
    },
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'PUT /hub/v1/queue/settings',
    request: async (t) => {
      await queueItem(t, adminCookie());
      return { method: 'PUT', path: '/hub/v1/queue/settings', body: { subscription_id: 'sub_queue', idle_seconds: 600 } };
    },
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/leases',
    request: async () => ({ method: 'GET', path: '/hub/v1/leases' }),
    expect: { admin: 200, reviewer: 403, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 200 },
  },
  {
    name: 'DELETE /hub/v1/leases/:batch',
    request: async (t) => ({ method: 'DELETE', path: `/hub/v1/leases/${await takenBatch(t, adminCookie(), {})}` }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/subscriptions',
    request: async () => ({ method: 'GET', path: '/hub/v1/subscriptions' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'PUT /hub/v1/subscriptions',
    request: async () => ({ method: 'PUT', path: '/hub/v1/subscriptions', body: { subscriptions: [{ id: 'sub_matrix', kind: 'live' }] } }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/budgets',
    request: async () => ({ method: 'GET', path: '/hub/v1/budgets' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'POST /hub/v1/budgets/sync',
    request: async () => ({ method: 'POST', path: '/hub/v1/budgets/sync' }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/overlap',
    request: async () => ({ method: 'GET', path: '/hub/v1/overlap' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'PUT /hub/v1/overlap',
    request: async () => ({ method: 'PUT', path: '/hub/v1/overlap', body: { settings: [{ subscription_id: 'sub_matrix', overlap: 2, rule: 'majority' }] } }),
    expect: { admin: 200, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    name: 'GET /hub/v1/disagreements',
    request: async () => ({ method: 'GET', path: '/hub/v1/disagreements' }),
    expect: { admin: 200, reviewer: 403, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 403, 'viewer-token': 200 },
  },
  {
    // Nothing is in the lead's queue here: the admin passes the role check and is told so.
    name: 'POST /hub/v1/disagreements/settle',
    request: async () => ({ method: 'POST', path: '/hub/v1/disagreements/settle', body: { family: 'data', item_id: 'itm_matrix', decision: 'adopt' } }),
    expect: { admin: 409, reviewer: 403, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 403, 'viewer-token': 403 },
  },
  {
    // "Pull new" moves the subscription forward for the whole team: not a viewer's, nor a read
    // token's. This hub forwards to no vendor, so a caller allowed to pull is told so (503).
    name: 'GET /v1/live/pull (Pull new)',
    request: async () => ({ method: 'GET', path: '/v1/live/pull?subscription_id=sub_live_matrix&limit=5' }),
    expect: { admin: 503, reviewer: 503, viewer: 403, anonymous: 401, 'admin-token': 403, 'reviewer-token': 503, 'viewer-token': 403 },
  },
  {
    // A re-read moves nothing: a read for every member and token.
    name: 'GET /v1/live/pull?from=beginning (re-read)',
    request: async () => ({ method: 'GET', path: '/v1/live/pull?subscription_id=sub_live_matrix&limit=5&from=beginning' }),
    expect: { admin: 503, reviewer: 503, viewer: 503, anonymous: 401, 'admin-token': 503, 'reviewer-token': 503, 'viewer-token': 503 },
  },
  {
    name: 'GET /hub/v1/agreement',
    request: async () => ({ method: 'GET', path: '/hub/v1/agreement' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
  {
    name: 'GET /hub/v1/reviewers/figures',
    request: async () => ({ method: 'GET', path: '/hub/v1/reviewers/figures' }),
    expect: { admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 },
  },
];

const tokenOwners = new Map<string, 'admin' | 'reviewer1' | 'viewer'>();
const ownerOf = (t: TestHub, token: string) => t.accounts[tokenOwners.get(token)!];

describe.each(ENGINES)('hub role matrix on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  const tokens: Partial<Record<Caller, string>> = {};
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
    for (const [caller, account, scope] of [
      ['admin-token', 'admin', 'read'],
      ['reviewer-token', 'reviewer1', 'decide'],
      ['viewer-token', 'viewer', 'read'],
    ] as const) {
      const made = await t.call('POST', '/hub/v1/tokens', {
        cookie: await t.signIn(t.accounts[account]),
        body: { name: caller, scope, subscriptions: ['*'], expires_in_days: 30 },
      });
      tokens[caller] = made.body.token;
      tokenOwners.set(made.body.token, account);
    }
  });
  afterAll(() => t?.close());

  /** How a caller authenticates: a session of its own (fresh each call), a token, or nothing. */
  const as = async (caller: Caller): Promise<CallOptions> => {
    if (caller === 'anonymous') return {};
    if (caller === 'admin' || caller === 'viewer' || caller === 'reviewer')
      return { cookie: await t.signIn(t.accounts[caller === 'reviewer' ? 'reviewer1' : caller]) };
    return { token: tokens[caller]!, origin: null };
  };

  for (const row of ROWS(() => admin)) {
    it(row.name, async () => {
      const seen: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const auth = await as(caller);
        const request = await row.request(t, auth);
        const answer = await t.call(request.method, request.path, { ...auth, body: request.body });
        seen[caller] = answer.status;
        // Every refusal is the JSON error body, never a bare status.
        if (answer.status >= 400) expect(answer.body, `${caller}: ${answer.text}`).toMatchObject({ success: false, errorCode: expect.any(String) });
      }
      expect(seen).toEqual(row.expect);
    });
  }

  // A stream never ends by itself, so its row opens it, reads the status and lets go.
  it('GET /hub/v1/events', async () => {
    const seen: Partial<Record<Caller, number>> = {};
    for (const caller of CALLERS) {
      const auth = await as(caller);
      const headers: Record<string, string> = {};
      if (auth.cookie) headers.Cookie = auth.cookie;
      if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
      const stream = await openStream(`${t.url}/hub/v1/events`, headers);
      seen[caller] = stream.status;
      stream.close();
    }
    expect(seen).toEqual({ admin: 200, reviewer: 200, viewer: 200, anonymous: 401, 'admin-token': 200, 'reviewer-token': 200, 'viewer-token': 200 });
  });
});

describe.each(ENGINES)('hub bad input on %s', (engine) => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub(engine);
  });
  afterAll(() => t?.close());

  it('answers every malformed request with a 4xx JSON error body, never a 5xx', async () => {
    const admin = await t.signIn(t.accounts.admin);
    const reviewer = await t.signIn(t.accounts.reviewer1);
    const cases: [string, string, CallOptions][] = [
      ['POST', '/hub/v1/session', { body: '[]' }],
      ['POST', '/hub/v1/session', { body: { email: 'a@b.c' } }],
      ['POST', '/hub/v1/session', { body: { email: 'a@b.c', password: 'x'.repeat(300) } }],
      ['POST', '/hub/v1/session', { body: 'x'.repeat(70_000) }],
      ['DELETE', '/hub/v1/session', { cookie: admin, body: { all: 'yes' } }],
      ['DELETE', '/hub/v1/session?all=maybe', { cookie: admin }],
      ['GET', '/hub/v1/oidc/start?redirect=%2F%2Fevil.example', {}],
      ['GET', '/hub/v1/oidc/start?return=%2Freview', {}],
      ['PATCH', '/hub/v1/members/mem_nobody', { cookie: admin, body: { role: 'viewer' } }],
      ['PATCH', '/hub/v1/members/mem_nobody', { cookie: admin, body: { role: 'root' } }],
      ['DELETE', '/hub/v1/members/mem_nobody', { cookie: admin }],
      ['DELETE', '/hub/v1/tokens/pat_nobody', { cookie: admin }],
      ['GET', '/hub/v1/audit?limit=abc', { cookie: admin }],
      ['GET', '/hub/v1/audit/export?format=xml', { cookie: admin }],
      ['PUT', '/hub/v1/settings', { cookie: admin, body: { reason_codes: [{ code: 'BAD' }] } }],
      ['POST', '/hub/v1/lots', { cookie: admin, body: { id: 'lot_x', subscription_id: 'sub', value: { version: 1 } } }],
      ['PUT', '/hub/v1/lots/lot_x', { cookie: admin, body: { revision: 'one' } }],
      ['GET', '/hub/v1/lots/lot_nobody', { cookie: admin }],
      ['POST', '/hub/v1/queue/take', { cookie: admin, body: { subscription_id: 'sub_none' } }],
      ['POST', '/hub/v1/queue/take', { cookie: admin, body: { subscription_id: 's', size: 0, filters: { quality_max: 'high' } } }],
      ['POST', '/hub/v1/queue/take', { cookie: admin, body: { subscription_id: 's', filters: { state: 'undecided' } } }],
      ['POST', '/hub/v1/queue/renew', { cookie: admin, body: { batch_id: 42 } }],
      ['POST', '/hub/v1/queue/release', { cookie: admin, body: { batch_id: 'batch_nobody', items: [{ family: 'x' }] } }],
      ['GET', '/hub/v1/queue/counts?subscription_id=s&quality_min=abc', { cookie: admin }],
      ['GET', '/hub/v1/queue/counts?subscription_id=s&task=,', { cookie: admin }],
      ['PUT', '/hub/v1/queue/settings', { cookie: admin, body: { subscription_id: 's', idle_seconds: 1 } }],
      ['DELETE', '/hub/v1/leases/batch_nobody', { cookie: admin }],
      ['GET', '/hub/v1/nothing-here', { cookie: admin }],
      ['PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: 'sub', overlap: 0, rule: 'majority' }] } }],
      ['PUT', '/hub/v1/overlap', { cookie: admin, body: { settings: [{ subscription_id: 'sub', overlap: 2, rule: 'most' }] } }],
      ['POST', '/hub/v1/disagreements/settle', { cookie: admin, body: { family: 'data', item_id: 'i', decision: 'maybe' } }],
      ['GET', '/hub/v1/reviewers/figures?member=mem_someone_else', { cookie: reviewer }],
      ['PUT', '/hub/v1/members', { cookie: admin, body: {} }],
      ['GET', '/hub/v1/me', { headers: { Authorization: 'Basic YTpi' } }],
      ['GET', '/hub/v1/me', { cookie: 'ddh_session=%%%' }],
    ];
    for (const [method, path, options] of cases) {
      const answer = await t.call(method, path, options);
      const label = `${method} ${path} → ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).toBeGreaterThanOrEqual(400);
      expect(answer.status, label).toBeLessThan(500);
      expect(answer.body, label).toMatchObject({ success: false, errorCode: expect.any(String), errorMessage: expect.any(String) });
    }
    // The admin's session survived all of it.
    expect((await t.call('GET', '/hub/v1/me', { cookie: admin })).status).toBe(200);
  });
});
