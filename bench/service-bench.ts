/**
 * `npm run bench:service`: the local service at 1,000,000 live submissions.
 * Prints p50/p99 of a 200-item page (incremental and re-read), pulls/s with 16 concurrent
 * clients, and adopts/s. A benchmark, not a test: it reports, it does not assert.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, inTransaction } from '../server/store/db';
import { createKey } from '../server/store/keys';
import { createLoaders } from '../server/store/loaders';
import { percentile, printTable, startServiceProcess } from './lib';

const DATA = 'bench/.data-1m';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ITEMS = 20_000;
const CREDENTIALS = join(DATA, 'bench-credentials.json');

interface BenchCredentials {
  key: string;
  rows: number;
}

function prepareData(): BenchCredentials {
  if (existsSync(CREDENTIALS)) {
    const saved = JSON.parse(readFileSync(CREDENTIALS, 'utf8')) as BenchCredentials;
    if (saved.rows === ROWS) return saved;
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
  const key = created.key;
  db.close();
  writeFileSync(CREDENTIALS, JSON.stringify({ key, rows: ROWS }));
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { key, rows: ROWS };
}

async function main() {
  const { key } = prepareData();
  // Fresh incremental position and decisions for every run.
  const db = openDb(DATA);
  db.exec(`UPDATE subscriptions SET position = 0; UPDATE items SET status = 'pending', decided_at = NULL; DELETE FROM receipts;`);
  db.close();

  const { url, child } = await startServiceProcess(['--port', '0', '--data', DATA, '--seed', 'none']);
  const headers = { Authorization: `Bearer ${key}` };
  // The client reads bodies as text and picks the cursor out: parsing 200 items per page
  // would spend this 2-core machine's CPU on the client instead of the service.
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return { data: { next_cursor: /"next_cursor":"([^"]*)"/.exec(text)?.[1] ?? '' } } as any;
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };

  try {
    // Warm-up.
    for (let i = 0; i < 20; i++) await get('/v1/live/pull?subscription_id=sub_live&limit=200&from=beginning');

    const PAGES = 300;
    const incremental: number[] = [];
    for (let i = 0; i < PAGES; i++) {
      incremental.push(await timed(() => get('/v1/live/pull?subscription_id=sub_live&limit=200')));
    }

    // Re-read from a point deep in the table, following cursors.
    const reread: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < PAGES; i++) {
      const path = `/v1/live/pull?subscription_id=sub_live&limit=200&from=beginning${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      let body: any;
      reread.push(await timed(async () => (body = await get(path))));
      cursor = body.data.next_cursor || null;
    }

    // Throughput: 16 clients re-reading pages for a fixed time.
    const DURATION_MS = 8_000;
    let pulls = 0;
    const deadline = performance.now() + DURATION_MS;
    await Promise.all(
      Array.from({ length: 16 }, async (_, client) => {
        let c: string | null = null;
        while (performance.now() < deadline) {
          const task = (client % 4) + 1;
          const body: any = await get(
            `/v1/live/pull?subscription_id=sub_live&limit=200&from=beginning&task_ids=${task}${c ? `&cursor=${encodeURIComponent(c)}` : ''}`,
          );
          c = body.data.next_cursor || null;
          pulls++;
        }
      }),
    );
    const pullsPerSecond = pulls / (DURATION_MS / 1000);

    // Adopts: distinct items, 8 at a time.
    const ADOPTS = 2_000;
    let next = 0;
    const adoptStart = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < ADOPTS) {
          const id = next++;
          const response = await fetch(`${url}/v1/data/items/item-${id}/adopt`, { method: 'POST', headers });
          if (!response.ok) throw new Error(`adopt ${id}: ${response.status}`);
          await response.arrayBuffer();
        }
      }),
    );
    const adoptsPerSecond = ADOPTS / ((performance.now() - adoptStart) / 1000);

    const p50inc = percentile(incremental, 50);
    const p50re = percentile(reread, 50);
    printTable(`Service benchmark: ${ROWS.toLocaleString()} live submissions, 200-item pages (${PAGES} each)`, [
      { metric: 'incremental page p50', value: `${p50inc.toFixed(2)} ms`, target: '≤ 15 ms', ok: p50inc <= 15 },
      { metric: 'incremental page p99', value: `${percentile(incremental, 99).toFixed(2)} ms` },
      { metric: 're-read page p50', value: `${p50re.toFixed(2)} ms`, target: '≤ 15 ms', ok: p50re <= 15 },
      { metric: 're-read page p99', value: `${percentile(reread, 99).toFixed(2)} ms` },
      { metric: 'pulls/s (16 clients)', value: pullsPerSecond.toFixed(0), target: '≥ 400', ok: pullsPerSecond >= 400 },
      { metric: 'adopts/s (8 clients)', value: adoptsPerSecond.toFixed(0) },
    ]);
    const results = {
      rows: ROWS,
      incremental_p50_ms: p50inc,
      incremental_p99_ms: percentile(incremental, 99),
      reread_p50_ms: p50re,
      reread_p99_ms: percentile(reread, 99),
      pulls_per_s: pullsPerSecond,
      adopts_per_s: adoptsPerSecond,
    };
    writeFileSync('bench/service-results.json', `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
