/**
 * `npm run bench:hub-queue`: the team queue (issue 26) on PostgreSQL.
 * (a) 100,000 items in the shared inbox and 20 simulated reviewers, each reviewing at a brisk
 *     reviewer's pace (a decision every REVIEW_MS, 250 ms: a batch of 20 lasts 5 s) and taking the
 *     next batch when one is done, starts staggered, for HUB_QUEUE_SECONDS (default 30): take
 *     p50/p95 (target p95 ≤ 50 ms). Then the same 20 taking back to back with no review between
 *     (HUB_QUEUE_TAKES each, default 25): the hub saturated, printed beside (no target: 20 takes
 *     queue on 2 cores whatever one costs). Whether any item was leased twice over both (target 0).
 * (b) The inbox grown to 1,000,000 rows: the queue counted (total, undecided, leased, per holder)
 *     unfiltered and under the items view's filters ("quality ≤ 0.6", "quality ≤ 0.6 of task t3"),
 *     median of 9 through the hub's HTTP endpoint (target ≤ 200 ms).
 * The hub runs in this process on a throwaway database (HUB_TEST_DATABASE_URL or the local cluster).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startHub } from '../server/hub/main';
import { createPasswords } from '../server/hub/passwords';
import { addMember } from '../server/hub/store/members';
import { throwawayDatabase } from '../server/tests/hub/postgres';
import { measure, percentile } from './harness/measure';
import { runBench, type Row } from './harness/run';

const REVIEWERS = 20;
const TAKES = Number(process.env.HUB_QUEUE_TAKES ?? 25);
const PACED_MS = Number(process.env.HUB_QUEUE_SECONDS ?? 30) * 1000;
/** A brisk reviewer: four decisions a second (the issue-25 bench's reviewers make one). */
const REVIEW_MS = 250;
const BATCH = 20;
const PASSWORD = 'bench password 0123';
const SUBSCRIPTION = 'sub_queue_bench';

runBench('hub-queue', async (bench) => {
  process.env.HUB_PASSWORD_COST = 'low';
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-queue-bench-'));
  bench.defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const database = await throwawayDatabase({ durableCommits: true });
  bench.defer(() => database.drop());
  // These reviewers never decide (a pause stands for the review), so the per-member hold cap
  // (MEMBER_HOLD_CAP, 200) would refuse their takes after ten batches: raised past what any takes
  // here (its count still runs on every take, so its cost is in the figures).
  const hub = await startHub({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: database.url,
    hubSecret: randomBytes(32).toString('hex'),
    memberHoldCap: 1_000_000,
  });
  bench.defer(() => hub.close());
  const db = hub.store.db;
  const hash = await createPasswords().hash(PASSWORD);
  const emails = Array.from({ length: REVIEWERS }, (_, i) => `reviewer${i + 1}@bench.hub`);
  for (const email of emails) await addMember(db, { email, role: 'reviewer', passwordHash: hash });
  await db.insertInto('team_subscriptions').values({ id: SUBSCRIPTION, kind: 'live', label: null, position: 0 }).execute();

  /** Rows `from`..`to` of the inbox: live items of 20 tasks, quality spread over [0, 1). */
  const fill = (from: number, to: number) =>
    sql`insert into inbox_items (family, item_id, subscription_id, seq, payload, price_micros, arrived_at, arrived_how, arrived_by)
        select 'live', 'item_' || n, ${SUBSCRIPTION}, n,
               json_build_object('submission_id', 'item_' || n, 'task_id', 't' || (n % 20), 'source', 'web',
                                 'quality_score', ((n * 7919) % 1000) / 1000.0, 'content', repeat('x', 200))::text,
               null, 0, 'pull', null
        from generate_series(${from}::bigint, ${to}::bigint) as n`.execute(db);
  let start = performance.now();
  await fill(1, 100_000);
  // As autovacuum leaves an insert-only table (PostgreSQL 13+ vacuums after inserts): the visibility map lets the counts read the index alone.
  await sql`vacuum analyze inbox_items`.execute(db);
  console.log(`100,000 inbox rows in ${Math.round(performance.now() - start)} ms`);

  const cookies: string[] = [];
  for (const email of emails) {
    const answer = await fetch(`${hub.url}/hub/v1/session`, {
      method: 'POST',
      headers: { Origin: hub.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    cookies.push(answer.headers.getSetCookie()[0]!.split(';')[0]!);
  }
  const post = (path: string, cookie: string, body: unknown) =>
    fetch(`${hub.url}${path}`, {
      method: 'POST',
      headers: { Origin: hub.url, 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
    });

  const leased: string[] = [];
  const take = async (cookie: string) => {
    const t0 = performance.now();
    const response = await post('/hub/v1/queue/take', cookie, { subscription_id: SUBSCRIPTION, size: BATCH });
    const body = (await response.json()) as { batch: { items: { item_id: string }[] } };
    const ms = performance.now() - t0;
    if (response.status !== 200) throw new Error(`take failed: ${response.status} ${JSON.stringify(body)}`);
    leased.push(...body.batch.items.map((item) => item.item_id));
    return ms;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // (a) 20 reviewers at a reviewer's pace: each takes a batch, reviews it, takes the next; starts spread over one batch's time.
  const paced: number[] = [];
  const until = performance.now() + PACED_MS;
  await Promise.all(
    cookies.map(async (cookie, i) => {
      await pause((i * BATCH * REVIEW_MS) / REVIEWERS);
      while (performance.now() < until) {
        paced.push(await take(cookie));
        await pause(BATCH * REVIEW_MS);
      }
    }),
  );
  // The same 20 with no review between: each takes the next as soon as the last came back.
  const saturated: number[] = [];
  await Promise.all(
    cookies.map(async (cookie) => {
      for (let i = 0; i < TAKES; i++) saturated.push(await take(cookie));
    }),
  );
  const rows: (Row & { group?: string })[] = [
    {
      group: 'take',
      ...measure(
        `take next batch of ${BATCH}, ${REVIEWERS} reviewers at a decision per ${REVIEW_MS} ms, p50 (${paced.length} takes)`,
        percentile(paced, 50),
        'ms',
        1,
      ),
    },
    {
      group: 'take',
      ...measure(`take next batch of ${BATCH}, ${REVIEWERS} reviewers at a decision per ${REVIEW_MS} ms, p95`, percentile(paced, 95), 'ms', 1, { max: 50 }),
    },
    {
      group: 'take',
      ...measure(`take next batch, ${REVIEWERS} taking back to back (saturated), p50 (${saturated.length} takes)`, percentile(saturated, 50), 'ms', 1),
    },
    { group: 'take', ...measure(`take next batch, ${REVIEWERS} taking back to back (saturated), p95`, percentile(saturated, 95), 'ms', 1) },
    { group: 'take', ...measure('items leased twice', leased.length - new Set(leased).size, '', 0, { max: 0 }) },
  ];

  // (b) The inbox at 1,000,000 rows.
  start = performance.now();
  for (let from = 100_001; from <= 1_000_000; from += 100_000) await fill(from, from + 99_999);
  // As autovacuum leaves an insert-only table (PostgreSQL 13+ vacuums after inserts): the visibility map lets the counts read the index alone.
  await sql`vacuum analyze inbox_items`.execute(db);
  console.log(`1,000,000 inbox rows in ${Math.round(performance.now() - start)} ms`);
  for (const [label, query] of [
    ['unfiltered', ''],
    ['quality ≤ 0.6', '&quality_max=0.6'],
    ['quality ≤ 0.6, task t3', '&quality_max=0.6&task=t3'],
  ] as const) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      const response = await fetch(`${hub.url}/hub/v1/queue/counts?subscription_id=${SUBSCRIPTION}${query}`, { headers: { Cookie: cookies[0]! } });
      const body = (await response.json()) as { total: number };
      times.push(performance.now() - t0);
      total = body.total;
    }
    rows.push({
      group: 'counts',
      ...measure(`1,000,000 rows, ${label} (${total.toLocaleString('en-US')} match), median`, percentile(times, 50), 'ms', 1, { max: 200 }),
    });
  }
  bench.report(`Team queue on PostgreSQL: ${REVIEWERS} reviewers taking batches of ${BATCH} from 100,000 items; the queue counted at 1,000,000`, rows);
});
