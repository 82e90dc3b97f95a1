import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAudit } from '../../hub/store/audit';
import { ENGINES, startTestHub, type TestHub } from './hub-harness';

const run = promisify(execFile);
const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../../cli/hub.ts', import.meta.url).pathname;

describe.each(ENGINES)('hub audit log on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
  });
  afterAll(() => t?.close());

  /** The hub CLI on this hub's store, as an operator runs it; never throws, the exit code is the test's. */
  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const store = ['--data', t.dataDir, ...(t.databaseUrl ? ['--database', t.databaseUrl] : [])];
    try {
      const { stdout, stderr } = await run(TSX, [CLI, ...args, ...store], { env: { ...process.env, HUB_PASSWORD_COST: 'low' } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('records every member, token and session change with who, what, target and outcome, chained by hash', async () => {
    const added = await t.call('POST', '/hub/v1/members', {
      cookie: admin,
      body: { email: 'audited@demo.hub', role: 'reviewer', password: 'audited-password-1' },
    });
    await t.call('PATCH', `/hub/v1/members/${added.body.member.id}`, { cookie: admin, body: { role: 'viewer' } });
    const cookie = await t.signIn({ email: 'audited@demo.hub', password: 'audited-password-1' });
    const token = await t.call('POST', '/hub/v1/tokens', { cookie, body: { name: 'n', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } });
    await t.call('DELETE', `/hub/v1/tokens/${token.body.access_token.id}`, { cookie });
    await t.call('DELETE', '/hub/v1/session', { cookie });
    await t.call('DELETE', `/hub/v1/members/${added.body.member.id}`, { cookie: admin });

    const { body } = await t.call('GET', '/hub/v1/audit?limit=1000', { cookie: admin });
    const adminId = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    const memberId = added.body.member.id;
    const mine = body.rows.filter((r: { target: string; actor_id: string }) => r.target === 'audited@demo.hub' || r.actor_id === memberId);
    expect(mine.map((r: { action: string; actor_id: string; outcome: string }) => [r.action, r.actor_id, r.outcome])).toEqual([
      ['member.add', adminId, 'ok'],
      ['member.role', adminId, 'ok'],
      ['session.sign_in', memberId, 'ok'],
      ['token.create', memberId, 'ok'],
      ['token.revoke', memberId, 'ok'],
      ['session.sign_out', memberId, 'ok'],
      ['member.remove', adminId, 'ok'],
    ]);
    expect(mine[1].details).toEqual({ from: 'reviewer', to: 'viewer' });
    // Each row names the one before it.
    for (let i = 1; i < body.rows.length; i++) {
      expect(body.rows[i].seq).toBe(body.rows[i - 1].seq + 1);
      expect(body.rows[i].prev_hash).toBe(body.rows[i - 1].hash);
    }
    expect(await verifyAudit(t.hub.store.db)).toMatchObject({ ok: true, rows: body.rows.length });
    // Nothing secret in the log: no password, no token.
    expect(JSON.stringify(body)).not.toContain('audited-password-1');
    expect(JSON.stringify(body)).not.toContain(token.body.token);
  });

  it('keeps one unbroken chain, and counts every failed sign-in, when requests arrive at once', async () => {
    const before = await t.hub.store.db.selectFrom('audit_head').select('seq').executeTakeFirstOrThrow();
    const target = 'concurrent@demo.hub';
    // Token creations share no row but the audit head: nothing else serializes their transactions.
    const reviewer = await t.signIn(t.accounts.reviewer1);
    const made = Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call('POST', '/hub/v1/tokens', { cookie: reviewer, body: { name: `parallel ${i}`, scope: 'read', subscriptions: ['*'], expires_in_days: 1 } }),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('POST', '/hub/v1/session', { body: { email: i % 2 ? target : `nobody${i}@demo.hub`, password: `wrong ${i}` } }),
      ),
    );
    // Some may be refused as throttled (the account locks at its fifth failure): each attempt that was checked is audited.
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked + answers.filter((a) => a.status === 429).length).toBe(20);
    const settled = await made;
    const after = await t.hub.store.db.selectFrom('audit_head').select('seq').executeTakeFirstOrThrow();
    expect(settled.map((a) => a.status)).toEqual(Array(40).fill(201));
    // The reviewer's sign-in, each checked attempt, each token.
    expect(after.seq - before.seq).toBe(1 + checked + 40);
    expect(await verifyAudit(t.hub.store.db)).toMatchObject({ ok: true });
    // No failure of the account was lost to a race: its count is the number of its checked attempts.
    const row = await t.hub.store.db.selectFrom('signin_throttle').selectAll().where('key', '=', `acct:${target}`).executeTakeFirstOrThrow();
    const checkedForTarget = answers.filter((a, i) => i % 2 === 1 && a.status === 401).length;
    expect(row.failures).toBe(checkedForTarget);
  });

  it('filters by member, action and time, pages by seq, and refuses a bad filter', async () => {
    const adminId = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    const byMember = (await t.call('GET', `/hub/v1/audit?member=${adminId}&action=member.add`, { cookie: admin })).body.rows;
    expect(byMember.length).toBeGreaterThan(0);
    for (const row of byMember) expect([row.actor_id, row.action]).toEqual([adminId, 'member.add']);
    const future = (await t.call('GET', `/hub/v1/audit?from=${new Date(Date.now() + 86_400_000).toISOString()}`, { cookie: admin })).body.rows;
    expect(future).toEqual([]);
    const past = (await t.call('GET', '/hub/v1/audit?to=2000-01-01', { cookie: admin })).body.rows;
    expect(past).toEqual([]);
    const first = (await t.call('GET', '/hub/v1/audit?limit=2', { cookie: admin })).body;
    expect(first.rows).toHaveLength(2);
    const second = (await t.call('GET', `/hub/v1/audit?limit=2&after=${first.next}`, { cookie: admin })).body;
    expect(second.rows[0].seq).toBe(first.rows[1].seq + 1);
    for (const query of ['from=yesterday', 'limit=0', 'limit=5000', 'after=-1', 'colour=red']) {
      const answer = await t.call('GET', `/hub/v1/audit?${query}`, { cookie: admin });
      expect(answer.status, query).toBe(400);
      expect(answer.body.errorCode).toBe('INVALID_PARAMETER');
    }
  });

  it('lists newest first on request, paged by `before` with no row lost or repeated; the default and the export keep the chain order', async () => {
    const seqsOf = (rows: { seq: number }[]) => rows.map((r) => r.seq);
    // Rows of its own (sign-ins), so the test pages over several pages on its own too.
    for (let i = 0; i < 4; i++) await t.signIn(t.accounts.viewer);
    const oldestFirst = seqsOf((await t.call('GET', '/hub/v1/audit?limit=1000', { cookie: admin })).body.rows);
    expect(oldestFirst.length).toBeGreaterThan(7);
    expect(oldestFirst).toEqual([...oldestFirst].sort((a, b) => a - b));
    const newestFirst: number[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const page: { rows: { seq: number }[]; next: number | null } = (
        await t.call('GET', `/hub/v1/audit?order=desc&limit=3${before === null ? '' : `&before=${before}`}`, { cookie: admin })
      ).body;
      expect(page.rows.length).toBeLessThanOrEqual(3);
      newestFirst.push(...seqsOf(page.rows));
      // A row appended while the reader pages does not shift the pages it has not read: they lie below `before`.
      if (pages++ === 0) await t.call('DELETE', '/hub/v1/session', { cookie: await t.signIn(t.accounts.viewer) });
      before = page.next;
    } while (before !== null);
    expect(newestFirst).toEqual([...oldestFirst].reverse());
    // Filtered, newest first: the same rows as the filter oldest first, reversed.
    const filter = 'action=session.sign_in';
    const filteredAsc = seqsOf((await t.call('GET', `/hub/v1/audit?${filter}`, { cookie: admin })).body.rows);
    const filteredDesc = seqsOf((await t.call('GET', `/hub/v1/audit?${filter}&order=desc`, { cookie: admin })).body.rows);
    expect(filteredAsc.length).toBeGreaterThan(1);
    expect(filteredDesc).toEqual([...filteredAsc].reverse());
    // The export is the chain: oldest first, each row naming the one before; it takes no order.
    const exported = (await t.call('GET', '/hub/v1/audit/export?format=jsonl', { cookie: admin })).text.trim().split('\n');
    const chain = exported.map((line) => JSON.parse(line) as { seq: number; hash: string; prev_hash: string });
    expect(seqsOf(chain)).toEqual(Array.from({ length: chain.length }, (_, i) => i + 1));
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.prev_hash).toBe(chain[i - 1]!.hash);
    expect((await t.call('GET', '/hub/v1/audit/export?format=jsonl&order=desc', { cookie: admin })).status).toBe(400);
    for (const query of ['order=newest', 'before=0', 'before=x']) {
      const answer = await t.call('GET', `/hub/v1/audit?${query}`, { cookie: admin });
      expect(answer.status, query).toBe(400);
      expect(answer.body.errorCode).toBe('INVALID_PARAMETER');
    }
  });

  it('manages members from the CLI beside the running hub, audited as the CLI', async () => {
    const added = await cli('members', 'add', '--email', 'cli@demo.hub', '--role', 'reviewer');
    expect(added.code, added.stderr).toBe(0);
    const { password } = JSON.parse(added.stdout) as { password: string };
    // The running hub sees the member at once.
    const cookie = await t.signIn({ email: 'cli@demo.hub', password });
    expect((await cli('members', 'role', '--email', 'cli@demo.hub', '--role', 'viewer')).code).toBe(0);
    expect((await t.call('GET', '/hub/v1/me', { cookie })).body.member.role).toBe('viewer');
    const listed = await cli('members', 'list');
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).email),
    ).toContain('cli@demo.hub');
    expect(listed.stdout).not.toMatch(/argon2/);
    expect((await cli('members', 'remove', '--email', 'cli@demo.hub')).code).toBe(0);
    expect((await t.call('GET', '/hub/v1/me', { cookie })).status).toBe(401);
    const rows = (await t.call('GET', `/hub/v1/audit?action=member.role`, { cookie: admin })).body.rows;
    expect(rows.at(-1)).toMatchObject({ via: 'cli', actor_id: null, target: 'cli@demo.hub' });
    const refused = await cli('members', 'add', '--email', 'x@demo.hub', '--role', 'owner');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--role must be one of admin, reviewer, viewer/);
  });

  it('prints the log as JSON Lines, and `audit verify` finds the first changed row', async () => {
    const printed = await cli('audit');
    expect(printed.code).toBe(0);
    const lines = printed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; hash: string });
    const head = await t.hub.store.db.selectFrom('audit_head').selectAll().executeTakeFirstOrThrow();
    expect(lines).toHaveLength(head.seq);
    expect(lines.at(-1)!.hash).toBe(head.hash);

    const intact = await cli('audit', 'verify');
    expect(intact.code).toBe(0);
    expect(JSON.parse(intact.stdout)).toEqual({ ok: true, rows: head.seq, headHash: head.hash });

    // The table refuses an UPDATE…
    const db = t.hub.store.db;
    await expect(sql`update audit set outcome = 'ok' where seq = 3`.execute(db)).rejects.toThrow(/append-only/);
    // …but someone with the database's keys can lift the fence: the chain is what catches them.
    if (engine === 'sqlite') await sql`drop trigger audit_no_update`.execute(db);
    else await sql`alter table audit disable trigger audit_no_change`.execute(db);
    await sql`update audit set target = 'someone-else@demo.hub' where seq = 3`.execute(db);

    const broken = await cli('audit', 'verify');
    expect(broken.code).not.toBe(0);
    expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, seq: 3, problem: expect.stringMatching(/changed/) });
    expect(await verifyAudit(db)).toMatchObject({ ok: false, seq: 3 });
  });
});
