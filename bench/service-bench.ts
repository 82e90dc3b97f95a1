/**
 * `npm run bench:service`: the local service at 1,000,000 live submissions (BENCH_ROWS).
 * Prints p50/p99 of a 200-item page (incremental and re-read), pulls/s with 16 concurrent
 * clients, and adopts/s.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, inTransaction } from '../server/store/db';
import { createKey } from '../server/store/keys';
import { createLoaders } from '../server/store/loaders';
import { measure, percentile, timed } from './harness/measure';
import { runBench } from './harness/run';
import { startService } from './harness/service';

const DATA = 'bench/.data-1m';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ITEMS = 20_000;
const CREDENTIALS = join(DATA, 'bench-credentials.json');

/** The data directory, built once per size and kept: its key. */
function prepareData(): string {
  if (existsSync(CREDENTIALS)) {
    const saved = JSON.parse(readFileSync(CREDENTIALS, 'utf8')) as { key: string; rows: number };
    if (saved.rows === ROWS) return saved.key;
  }
  rmSync(DATA, { recursive: true, force: true });
  console.log(`Building ${ROWS.toLocaleString()} live submissions in ${DATA} (once)...`);
  const started = performance.now();
  const db = openDb(DATA);
  const load = createLoaders(db);
  inTransaction(db, () => {
    load.org('org_bench', 'Bench');
    load.frontier({ frontier_id: '1', title: 'Bench frontier', status: 'ONLINE' });
    for (let t = 1; t <= 4; t++) load.task({ task_id: String(t), frontier_id: '1', name: `Task ${t}`, task_type: 'IMAGE_ANNOTATION', status: 'COLLECTING' });
    for (let i = 0; i < ROWS; i++) {
      load.submission({
        submission_id: String(10_000_000 + i),
        task_id: String((i % 4) + 1),
        frontier_id: '1',
        campaign_id: i % 2 ? 'c1' : 'c2',
        data: `{"image_url":"/media/scenes/${i % 997}.svg","annotations":[{"label":"car","bbox":{"x":${i % 500},"y":20,"width":120,"height":80}}],"note":"bench row ${i}"}`,
        quality_score: 0.9,
        quality_grade: 'A',
        source: 'bench',
        created_at: '2026-01-01T00:00:00',
      });
    }
    load.countSubmissions();
    load.subscription({ subscription_id: 'sub_live', org_id: 'org_bench', kind: 'live', frontier_id: '1', name: 'live' });
    load.vertical({ id: 'v1', slug: 'bench', name: 'Bench', description: 'bench', base_price_micros: 12_500 });
    load.topic('t1', 'v1', 'topic');
    load.subscription({ subscription_id: 'sub_sim', org_id: 'org_bench', kind: 'simulated', vertical_id: 'v1', name: 'sim' });
    load.delivery({ delivery_id: 'd1', subscription_id: 'sub_sim', vertical_id: 'v1', created_at: '2026-01-01T00:00:00Z' });
    for (let i = 0; i < ITEMS; i++) {
      load.item({
        id: `item-${i}`,
        vertical_id: 'v1',
        topic_id: 't1',
        payload: { n: i },
        quality_score: 0.9,
        quality_method: 'consensus',
        validator_count: 3,
        consensus_ratio: 1,
        unit_price_micros: 12_500,
        created_at: '2026-01-01T00:00:00Z',
        subscription_id: 'sub_sim',
        delivery_id: 'd1',
      });
    }
  });
  const created = createKey(db, { name: 'bench', subscriptionIds: ['sub_live', 'sub_sim'], expiresAt: null, dataAccess: true });
  if ('refused' in created) throw new Error(`bench key: ${created.refused}`);
  db.close();
  writeFileSync(CREDENTIALS, JSON.stringify({ key: created.key, rows: ROWS }));
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return created.key;
}

runBench('service', async (bench) => {
  const key = prepareData();
  // Fresh incremental position and decisions for every run.
  const db = openDb(DATA);
  db.exec(`UPDATE subscriptions SET position = 0; UPDATE items SET status = 'pending', decided_at = NULL; DELETE FROM receipts;`);
  db.close();

  const { url } = await startService(bench, { data: DATA, seed: 'none' });
  const headers = { Authorization: `Bearer ${key}` };
  // The client reads bodies as text and picks the cursor out: parsing 200 items per page
  // would spend this 2-core machine's CPU on the client instead of the service.
  const pull = async (query: string, cursor?: string | null) => {
    const path = `/v1/live/pull?subscription_id=sub_live&limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return /"next_cursor":"([^"]*)"/.exec(text)?.[1] || null;
  };

  // Warm-up.
  for (let i = 0; i < 20; i++) await pull('&from=beginning');

  const PAGES = 300;
  const incremental: number[] = [];
  for (let i = 0; i < PAGES; i++) incremental.push(await timed(() => pull('')));

  // Re-read from a point deep in the table, following cursors.
  const reread: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < PAGES; i++) reread.push(await timed(async () => (cursor = await pull('&from=beginning', cursor))));

  // Throughput: 16 clients re-reading pages for a fixed time.
  const DURATION_MS = 8_000;
  let pulls = 0;
  const deadline = performance.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: 16 }, async (_, client) => {
      let c: string | null = null;
      while (performance.now() < deadline) {
        c = await pull(`&from=beginning&task_ids=${(client % 4) + 1}`, c);
        pulls++;
      }
    }),
  );

  // Adopts: distinct items, 8 at a time.
  const ADOPTS = 2_000;
  let next = 0;
  const adoptMs = await timed(() =>
    Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < ADOPTS) {
          const id = next++;
          const response = await fetch(`${url}/v1/data/items/item-${id}/adopt`, { method: 'POST', headers });
          if (!response.ok) throw new Error(`adopt ${id}: ${response.status}`);
          await response.arrayBuffer();
        }
      }),
    ),
  );

  bench.report(`Service benchmark: ${ROWS.toLocaleString()} live submissions, 200-item pages (${PAGES} each)`, [
    measure('incremental page p50', percentile(incremental, 50), 'ms', 2, { max: 15 }),
    measure('incremental page p99', percentile(incremental, 99), 'ms', 2),
    measure('re-read page p50', percentile(reread, 50), 'ms', 2, { max: 15 }),
    measure('re-read page p99', percentile(reread, 99), 'ms', 2),
    measure('pulls/s (16 clients)', pulls / (DURATION_MS / 1000), '', 0, { min: 400 }),
    measure('adopts/s (8 clients)', ADOPTS / (adoptMs / 1000), '', 0),
  ]);
});
