/**
 * `npm run bench:hub`: the team hub in front of the simulator.
 * (a) The hub's added latency per pull and per decision: the same requests sent to the simulator
 *     directly and through the hub, interleaved; p50/p95 of each and the difference (target ≤ 5 ms p50).
 * (b) 20 simulated reviewers deciding one item per second each for HUB_BENCH_SECONDS (default
 *     300) through the hub, on each storage engine: decision p99 (target ≤ 50 ms), and, judged by
 *     the simulator's own records once the hub's queue is empty, decisions lost and duplicated (target 0, 0);
 *     and a decision seen by another console: from a reviewer's request to the change event on an
 *     observer's stream (GET /hub/v1/events as an admin), p95 (target ≤ 1 s).
 * Both run with HUB_BENCH_INBOX (default 100,000) items in the shared inbox beforehand, the scale issue 26 names.
 * HUB_BENCH_PARTS=a (or b) runs one part; HUB_BENCH_ENGINES=postgres (or sqlite) one engine.
 * The simulator and the hub each run as a process of their own, as they are deployed (the hub on
 * SQLite in a temporary directory, then on a throwaway PostgreSQL database: HUB_TEST_DATABASE_URL or
 * the local cluster); this process only sends the requests and times them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { demoCredentialsSchema } from '../src/api/contract';
import { createPasswords } from '../server/hub/passwords';
import { addMember } from '../server/hub/store/members';
import { addVendorKey } from '../server/hub/store/vendor-keys';
import { vendorCipher } from '../server/hub/vendor-cipher';
import { openDb } from '../server/store/db';
import { openStream } from '../server/tests/hub/event-stream';
import { throwawayDatabase } from '../server/tests/hub/postgres';
import { measure, percentile } from './harness/measure';
import { runBench, type Row } from './harness/run';
import { startHubProcess, type HubProcess } from './harness/hub';
import { startService } from './harness/service';

const SECONDS = Number(process.env.HUB_BENCH_SECONDS ?? 300);
const REVIEWERS = 20;
const SAMPLES = Number(process.env.HUB_BENCH_SAMPLES ?? 300);
const SUBSCRIPTIONS = ['sub_sim_retail', 'sub_sim_support', 'sub_sim_product'];
/** Items in the shared inbox before the run (issue 26 measures at 100,000). */
const INBOX_ITEMS = Number(process.env.HUB_BENCH_INBOX ?? 100_000);
const PASSWORD = 'bench password 0123';

type Engine = 'sqlite' | 'postgres';
/** HUB_BENCH_ENGINES=postgres (or sqlite) runs one engine: each takes over five minutes. */
const ENGINES = (process.env.HUB_BENCH_ENGINES ?? 'sqlite,postgres').split(',').filter((e): e is Engine => e === 'sqlite' || e === 'postgres');
/** HUB_BENCH_PARTS=a runs only the added latency (b alone: HUB_BENCH_PARTS=b), for iterating on one. */
const PARTS = new Set((process.env.HUB_BENCH_PARTS ?? 'a,b').split(','));

runBench('hub', async (bench) => {
  process.env.HUB_PASSWORD_COST = 'low';
  const vendor = await startService(bench, {});
  const credentials = demoCredentialsSchema.parse(JSON.parse(readFileSync(join(vendor.dataDir, 'demo-credentials.json'), 'utf8')));
  const vendorDb = openDb(vendor.dataDir);
  bench.defer(() => vendorDb.close());
  // Enough pending items for every decision of both runs, both latency sets and some to spare.
  const perSubscription = Math.ceil((2 * (REVIEWERS * SECONDS + 4 * SAMPLES) + 600) / SUBSCRIPTIONS.length);
  const insert = vendorDb.prepare(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    INSERT INTO items (id, vertical_id, topic_id, payload, quality_score, quality_method, validator_count, consensus_ratio,
                       unit_price_micros, created_at, subscription_id, delivery_id)
    SELECT 'bench-' || t.subscription_id || '-' || n.i, t.vertical_id, t.topic_id, t.payload, t.quality_score, t.quality_method,
           t.validator_count, t.consensus_ratio, t.unit_price_micros, t.created_at, t.subscription_id, t.delivery_id
    FROM n, (SELECT * FROM items WHERE subscription_id = ? ORDER BY seq DESC LIMIT 1) t`);
  for (const s of SUBSCRIPTIONS) insert.run(perSubscription, s);

  const vendorHeaders = { Authorization: `Bearer ${credentials.api_key}` };
  const rows: (Row & { group?: string })[] = [];
  for (const engine of ENGINES) {
    const team = await startTeam(bench, engine, vendor.url, credentials);
    if (PARTS.has('a')) rows.push(...(await latency(engine, vendor.url, vendorHeaders, team)));
    if (PARTS.has('b')) rows.push(...(await reviewers(engine, vendorDb, team)));
    await team.hub.close();
  }
  bench.report(
    `Team hub: added latency (${SAMPLES} samples each) and ${REVIEWERS} reviewers × 1 decision/s for ${SECONDS} s, ${INBOX_ITEMS.toLocaleString('en-US')} items in the shared inbox`,
    rows,
  );
});

interface Team {
  hub: HubProcess;
  cookies: string[];
  /** The observing console's session. */
  observer: string;
}

/** A hub on the engine, forwarding to the simulator with its key, and REVIEWERS signed-in reviewers. */
async function startTeam(
  bench: Parameters<Parameters<typeof runBench>[1]>[0],
  engine: Engine,
  upstream: string,
  credentials: { api_key: string; jwt: string },
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  bench.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const database = engine === 'postgres' ? await throwawayDatabase({ durableCommits: true }) : undefined;
  if (database) bench.defer(() => database.drop());
  const hubSecret = randomBytes(32).toString('hex');
  const hub = await startHubProcess(bench, { dataDir, databaseUrl: database?.url, upstream, hubSecret });
  const hash = await createPasswords().hash(PASSWORD);
  const emails = Array.from({ length: REVIEWERS }, (_, i) => `reviewer${i + 1}@bench.hub`);
  for (const email of emails) await addMember(hub.store.db, { email, role: 'reviewer', passwordHash: hash });
  // The observer: another console, following the team's change stream.
  await addMember(hub.store.db, { email: 'observer@bench.hub', role: 'admin', passwordHash: hash });
  await addVendorKey(hub.store.db, vendorCipher(Buffer.from(hubSecret, 'utf8')), {
    name: 'vendor',
    key: credentials.api_key,
    jwt: credentials.jwt,
    subscriptions: ['*'],
  });
  await fillInbox(hub);
  // A budget far above what the run spends: every adopt goes through the check under the lock.
  await hub.store.db.insertInto('budget_limits').values({ scope: 'organization', target: '', daily_micros: 1e12, monthly_micros: 1e12 }).execute();
  const cookies: string[] = [];
  for (const email of [...emails, 'observer@bench.hub']) {
    const answer = await fetch(`${hub.url}/hub/v1/session`, {
      method: 'POST',
      headers: { Origin: hub.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    cookies.push(answer.headers.getSetCookie()[0]!.split(';')[0]!);
  }
  const observer = cookies.pop()!;
  return { hub, cookies, observer } satisfies Team;
}

/**
 * The shared inbox at the size the issue measures (issue 26: 100,000 items): live items nobody
 * takes, numbered ahead of what the run pulls, spread over the subscriptions the reviewers decide,
 * with the counts the triggers keep. One statement per subscription, the same SQL on both engines.
 */
async function fillInbox(hub: HubProcess) {
  const per = Math.ceil(INBOX_ITEMS / SUBSCRIPTIONS.length);
  for (const subscription of SUBSCRIPTIONS) {
    await sql`
      insert into inbox_items (family, item_id, subscription_id, seq, payload, price_micros, arrived_at, arrived_how, arrived_by)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${per})
      select 'live', 'backlog-' || ${subscription} || '-' || cast(i as text), ${subscription}, i,
             '{"submission_id":"backlog-' || cast(i as text) || '","task_id":"t' || cast(i % 20 as text) ||
               '","quality_score":' || cast((i * 7919) % 1000 as text) || 'e-3,"source":"web"}',
             null, 0, 'pull', null
      from n`.execute(hub.store.db);
    await hub.store.db.insertInto('inbox_heads').values({ subscription_id: subscription, seq: per }).execute();
  }
  // As a hub that has run a while has it: autovacuum would otherwise vacuum and analyze the bulk load during the run.
  if (hub.store.engine === 'postgres') await sql`vacuum analyze inbox_items`.execute(hub.store.db);
  const { n } = await hub.store.db
    .selectFrom('inbox_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(`${Number(n).toLocaleString('en-US')} items in the shared inbox`);
}

async function timedFetch(url: string, init: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { ms: performance.now() - start, status: response.status, text };
}

/** (a) The same pulls and decisions, direct and through the hub, interleaved. */
async function latency(engine: Engine, vendorUrl: string, vendorHeaders: Record<string, string>, team: Team): Promise<Row[]> {
  const hubHeaders = { Cookie: team.cookies[0]!, Origin: team.hub.url };
  const pullPath = '/v1/data/pull?subscription_id=sub_sim_retail&limit=10';
  const direct = { pull: [] as number[], decide: [] as number[] };
  // The hub's floor: who is asking (a session looked up), no upstream.
  const me: number[] = [];
  const viaHub = { pull: [] as number[], decide: [] as number[] };
  for (let i = 0; i < 20; i++) {
    await timedFetch(`${vendorUrl}${pullPath}`, { headers: vendorHeaders });
    await timedFetch(`${team.hub.url}${pullPath}`, { headers: hubHeaders });
  }
  for (let i = 0; i < SAMPLES; i++) {
    direct.pull.push((await timedFetch(`${vendorUrl}${pullPath}`, { headers: vendorHeaders })).ms);
    viaHub.pull.push((await timedFetch(`${team.hub.url}${pullPath}`, { headers: hubHeaders })).ms);
    me.push((await timedFetch(`${team.hub.url}/hub/v1/me`, { headers: hubHeaders })).ms);
  }
  // Distinct pending items, pulled through the hub (it keeps their price); half decided directly.
  const items: string[] = [];
  for (const s of SUBSCRIPTIONS) {
    const page = await timedFetch(`${team.hub.url}/v1/data/pull?subscription_id=${s}&limit=200`, { headers: hubHeaders });
    items.push(...(JSON.parse(page.text) as { data: { id: string }[] }).data.map((d) => d.id));
  }
  const pairs = Math.min(SAMPLES, Math.floor(items.length / 2));
  for (let i = 0; i < pairs; i++) {
    const kind = i % 3 === 2 ? 'dispute' : 'adopt';
    const a = await timedFetch(`${vendorUrl}/v1/data/items/${items[2 * i]}/${kind}`, { method: 'POST', headers: vendorHeaders });
    const b = await timedFetch(`${team.hub.url}/v1/data/items/${items[2 * i + 1]}/${kind}`, { method: 'POST', headers: hubHeaders });
    if (a.status !== 200 || b.status !== 200) throw new Error(`decision failed: direct ${a.status}, hub ${b.status} ${b.text}`);
    direct.decide.push(a.ms);
    viaHub.decide.push(b.ms);
  }
  const added = (what: 'pull' | 'decide', p: number) => percentile(viaHub[what], p) - percentile(direct[what], p);
  const group = `${engine} (a)`;
  return [
    measure('hub GET /hub/v1/me p50 (its floor)', percentile(me, 50), 'ms', 2),
    measure('pull direct p50', percentile(direct.pull, 50), 'ms', 2),
    measure('pull via hub p50', percentile(viaHub.pull, 50), 'ms', 2),
    measure('pull via hub p95', percentile(viaHub.pull, 95), 'ms', 2),
    measure('pull added p50', added('pull', 50), 'ms', 2, { max: 5 }),
    measure('pull added p95', added('pull', 95), 'ms', 2),
    measure('decision direct p50', percentile(direct.decide, 50), 'ms', 2),
    measure('decision via hub p50', percentile(viaHub.decide, 50), 'ms', 2),
    measure('decision via hub p95', percentile(viaHub.decide, 95), 'ms', 2),
    measure('decision added p50', added('decide', 50), 'ms', 2, { max: 5 }),
    measure('decision added p95', added('decide', 95), 'ms', 2),
  ].map((r) => ({ ...r, group }));
}

/** (b) REVIEWERS reviewers, one decision a second each, items handed out from pulls through the hub. */
async function reviewers(engine: Engine, vendorDb: ReturnType<typeof openDb>, team: Team): Promise<Row[]> {
  const handedOut = new Set<string>();
  const queues = new Map(SUBSCRIPTIONS.map((s) => [s, [] as string[]]));
  const pulling = new Map<string, Promise<void>>();
  const puller = { Cookie: team.cookies[0]!, Origin: team.hub.url };
  /** The next item of a subscription no reviewer has had: a pull through the hub when the queue runs dry. */
  const nextItem = async (subscription: string): Promise<string> => {
    const queue = queues.get(subscription)!;
    while (queue.length === 0) {
      if (!pulling.has(subscription)) {
        const refill = timedFetch(`${team.hub.url}/v1/data/pull?subscription_id=${subscription}&limit=200`, { headers: puller }).then((page) => {
          for (const { id } of (JSON.parse(page.text) as { data: { id: string }[] }).data) if (!handedOut.has(id)) queue.push(id);
        });
        pulling.set(
          subscription,
          refill.finally(() => pulling.delete(subscription)),
        );
      }
      await pulling.get(subscription);
    }
    const id = queue.shift()!;
    handedOut.add(id);
    return id;
  };

  const decided = new Map<string, 'adopt' | 'dispute'>();
  const ms: number[] = [];
  // When each decision's request started, and how long until the observer's stream carried it.
  const sentAt = new Map<string, number>();
  const seenMs: number[] = [];
  // The stream's own part: from the audit row's commit time (the hub's clock, this process's) to the observer.
  const lagMs: number[] = [];
  // Decisions the stream carried as accepted, each once (a refused request's row, e.g. ITEM_LEASED, is not one).
  const seen = new Set<string>();
  const stream = await openStream(`${team.hub.url}/hub/v1/events`, { Cookie: team.observer }, (e) => {
    if (e.event !== 'change' || (e.data.action !== 'v1.adopt' && e.data.action !== 'v1.dispute') || e.data.outcome !== 'accepted') return;
    const t0 = sentAt.get(e.data.item_id);
    if (t0 === undefined || seen.has(e.data.item_id)) return;
    seen.add(e.data.item_id);
    seenMs.push(performance.now() - t0);
    lagMs.push(Date.now() - Date.parse(e.data.at));
  });
  let refused = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    team.cookies.map(async (cookie, r) => {
      const headers = { Cookie: cookie, Origin: team.hub.url };
      // Each reviewer at its own phase within the second.
      for (let tick = started + (r * 1000) / REVIEWERS, n = 0; tick < end; tick += 1000, n++) {
        const wait = tick - performance.now();
        if (wait > 0) await new Promise((done) => setTimeout(done, wait));
        const id = await nextItem(SUBSCRIPTIONS[r % SUBSCRIPTIONS.length]!);
        const kind = n % 3 === 2 ? 'dispute' : 'adopt';
        sentAt.set(id, performance.now());
        const answer = await timedFetch(`${team.hub.url}/v1/data/items/${id}/${kind}`, { method: 'POST', headers });
        ms.push(answer.ms);
        if (answer.status === 200 || answer.status === 202) decided.set(id, kind);
        else refused++;
      }
    }),
  );
  // The hub's queue empty: everything it accepted has been sent.
  for (;;) {
    const open = await team.hub.store.db.selectFrom('decisions').select('id').where('state', 'in', ['queued', 'sending']).execute();
    if (open.length === 0) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  // The observer's stream carries a change a moment after its request answered: the last few are
  // waited for (up to 5 s), so that one not seen is one the stream never carried, not one cut off here.
  const seenBy = performance.now() + 5_000;
  const unseen = () => [...decided.keys()].filter((id) => !seen.has(id)).length;
  while (unseen() > 0 && performance.now() < seenBy) await new Promise((done) => setTimeout(done, 50));
  stream.close();
  const status = vendorDb.prepare('SELECT status FROM items WHERE id = ?');
  const receipts = vendorDb.prepare(`SELECT count(*) AS n FROM receipts WHERE kind = 'adopt' AND item_id = ?`);
  let lost = 0;
  let duplicated = 0;
  for (const [id, kind] of decided) {
    if ((status.get(id) as { status: string }).status !== (kind === 'adopt' ? 'adopted' : 'disputed')) lost++;
    if ((receipts.get(id) as { n: number }).n !== (kind === 'adopt' ? 1 : 0)) duplicated++;
  }
  const group = `${engine} (b)`;
  return [
    measure('decisions', decided.size, '', 0),
    measure('refused (not 200/202)', refused, '', 0, { max: 0 }),
    measure('decision p50', percentile(ms, 50), 'ms', 2),
    measure('decision p99', percentile(ms, 99), 'ms', 2, { max: 50 }),
    measure('lost', lost, '', 0, { max: 0 }),
    measure('duplicated', duplicated, '', 0, { max: 0 }),
    measure('seen by another console', seenMs.length, '', 0),
    measure('not seen by another console', unseen(), '', 0, { max: 0 }),
    measure('seen by another console p50', percentile(seenMs, 50), 'ms', 1),
    measure('seen by another console p95', percentile(seenMs, 95), 'ms', 1, { max: 1000 }),
    measure('stream lag (audit row → observer) p95', percentile(lagMs, 95), 'ms', 1),
  ].map((row) => ({ ...row, group }));
}
