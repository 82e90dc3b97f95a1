/**
 * `npm run bench:bulk`: bulk-adopt 10,000 matching live items, in Chromium, through the real
 * outbox engine, its real IndexedDB store and the real fetch client, against a real local service.
 *
 * The console's own pages expose nothing to drive the engine from outside, so the benchmark
 * bundles a page of its own from the console's modules: the outbox engine
 * (src/domain/outbox/engine.ts) with `indexedDbStore`, the local store holding the 10,000 items
 * as a pull would have written them, the bulk preview that turns the matching rows into decisions
 * (src/features/bulk/preview.ts), and `createClient` (src/api/client.ts). The service serves that
 * page (`--static`), so the decisions go to the same origin, over HTTP/1.1, six at a time at most
 * as a browser allows.
 *
 * Prints: the time to record and write the 10,000 decisions (one IndexedDB transaction), the time
 * until the service has recorded all of them (the undo window included: BULK_BENCH_GRACE_MS,
 * 3,000 by default as in the console), and whether each was recorded exactly once: the service's
 * request log (one POST per item, each answered 200) and its database (one adopt per item).
 */
import { openDb } from '../server/store/db';
import { openContext } from './harness/browser';
import { percentile } from './harness/measure';
import { bundlePage, callPage, ROOT } from './harness/pages';
import { runBench } from './harness/run';
import { liveStream, startService } from './harness/service';

const ITEMS = Number(process.env.BULK_BENCH_ITEMS ?? 10_000);
const GRACE_MS = Number(process.env.BULK_BENCH_GRACE_MS ?? 3_000);
const SUBSCRIPTION = 'sub_bench_bulk';
const FIRST_ID = 30_000_000;

/** A live subscription of ITEMS small submissions. */
const fixture = () => ({
  ...liveStream({
    frontier: '9300',
    title: 'Bulk benchmark stream',
    tasks: { '9301': 'Bulk task' },
    type: 'TEXT_CLASSIFICATION',
    subscription: SUBSCRIPTION,
    name: 'Bulk benchmark',
  }),
  submissions: Array.from({ length: ITEMS }, (_, i) => ({
    submission_id: String(FIRST_ID + i),
    task_id: '9301',
    data: { text: `Bulk benchmark message ${i}`, label: ['refund', 'other'][i % 2] },
    quality_score: 0.5 + (i % 50) / 100,
    quality_grade: 'ABCD'[i % 4],
    source: 'web',
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19),
  })),
});

/**
 * The page: writes the items into the local store as a pull does, then times a bulk adopt of
 * every matching item through the engine. Only the timings and the send counts come back.
 */
const PAGE_SOURCE = `
import { createClient } from '${ROOT}/src/api/client.ts';
import { bulkPreview, decisionsOf } from '${ROOT}/src/features/bulk/preview.ts';
import { ConsoleDb } from '${ROOT}/src/domain/store/db.ts';
import { saveDelivered } from '${ROOT}/src/domain/store/items.ts';
import { summaryOfLive } from '${ROOT}/src/domain/store/summary.ts';
import { OutboxEngine } from '${ROOT}/src/domain/outbox/engine.ts';
import { indexedDbStore } from '${ROOT}/src/domain/outbox/store.ts';
import { toTriageRows } from '${ROOT}/src/domain/triage/triage-state.ts';

window.bulkBench = async ({ key, subscriptionId, ids, graceMs }) => {
  const scope = location.origin + ' org_bench_bulk';
  const db = new ConsoleDb('dds-bulk-bench');
  // The items, as pulls of 200 would have written them.
  for (let i = 0; i < ids.length; i += 200) {
    const page = ids.slice(i, i + 200).map((id) => {
      const record = { submission_id: id, task_id: '9301', frontier_id: '9300', data: { text: 'x' }, quality_score: 0.7, quality_grade: 'B', source: 'web', created_at: '2026-01-01T00:00:00', consumer_feedback: null };
      return { summary: summaryOfLive(record), record };
    });
    await saveDelivered(db, scope, subscriptionId, 'incremental', page);
  }
  const items = (await db.items.toArray()).sort((a, b) => a.seq - b.seq);
  const client = createClient({ baseUrl: location.origin, apiKey: key });
  const sends = new Map();
  const latencies = [];
  const writes = [];
  let failures = 0;
  const idb = indexedDbStore(db);
  const store = {
    ...idb,
    write: async (puts, deletes) => {
      const t = performance.now();
      await idb.write(puts, deletes);
      writes.push([puts.length + deletes.length, performance.now() - t]);
    },
  };
  const engine = new OutboxEngine({
    store,
    send: async (entry) => {
      sends.set(entry.itemId, (sends.get(entry.itemId) ?? 0) + 1);
      const t = performance.now();
      try {
        return await client.adoptLive(entry.itemId, entry.subscriptionId);
      } finally {
        latencies.push(performance.now() - t);
      }
    },
    onKeyRefused: () => failures++,
    isOnline: () => navigator.onLine,
    graceMs: () => graceMs,
    concurrency: 6,
    tabs: { id: 'bench-tab', whenGone: () => undefined, announce: () => undefined, onAnnounce: () => undefined },
  });
  await engine.load(scope);
  // Renders read the entries once a frame, as the console's lists do.
  let renders = 0;
  engine.subscribe(() => {
    renders++;
    engine.getSnapshot();
  });

  const started = performance.now();
  const preview = bulkPreview(toTriageRows(items, []), 'adopt', 'live');
  const { recorded, skipped } = engine.enqueueMany(scope, decisionsOf(preview), 'query:bench', 'bench');
  const enqueuedMs = performance.now() - started;
  const written = await engine.whenWritten();
  const writtenMs = performance.now() - started;
  const storedRows = await db.decisions.count();
  await new Promise((resolve) => {
    const check = () => {
      const entries = engine.entriesOf(scope);
      const done = entries.every((e) => e.state === 'sent' || e.state === 'failed' || e.state === 'conflict');
      if (done) resolve(undefined);
      else setTimeout(check, 20);
    };
    check();
  });
  const sentMs = performance.now() - started;
  await engine.whenWritten();
  const states = {};
  for (const e of engine.entriesOf(scope)) states[e.state] = (states[e.state] ?? 0) + 1;
  return {
    recorded: recorded.length,
    skipped: skipped.length,
    enqueuedMs,
    written,
    writtenMs,
    storedRows,
    sentMs,
    states,
    sendsMax: Math.max(...sends.values()),
    sendsDistinct: sends.size,
    failures,
    renders,
    latencies: latencies.sort((a, b) => a - b),
    writes,
  };
};
/** The floor: the same adopts by plain fetch, six at a time, no outbox (repeats: the service answers them as no-ops). */
window.fetchFloor = async ({ key, subscriptionId, ids }) => {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const response = await fetch('/v1/live/items/' + id + '/adopt', {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ subscription_id: subscriptionId }),
        });
        await response.text();
      }
    }),
  );
  return performance.now() - started;
};
document.title = 'ready';
`;

runBench('bulk', async (bench) => {
  const pageDir = await bundlePage(bench, 'bulk-bench', PAGE_SOURCE);
  // The service's request log (method, path, status, time per line) counts the adopts it answered.
  const adopts = new Map<string, number[]>();
  /** The service's own time per adopt (from its log). */
  const serviceMs: number[] = [];
  const service = await startService(bench, {
    static: pageDir,
    onLine: (line) => {
      const adopt = /^POST \/v1\/live\/items\/([^/]+)\/adopt (\d+) ([\d.]+)ms/.exec(line);
      if (!adopt) return;
      adopts.set(adopt[1]!, [...(adopts.get(adopt[1]!) ?? []), Number(adopt[2])]);
      serviceMs.push(Number(adopt[3]));
    },
  });
  const { url, dataDir } = service;
  console.log(`importing ${ITEMS.toLocaleString('en-US')} live submissions…`);
  service.importFixture('bulk', fixture());
  const key = service.createKey('bench:bulk', [SUBSCRIPTION], false);
  const ids = Array.from({ length: ITEMS }, (_, i) => String(FIRST_ID + i));

  const page = await (await openContext(bench)).newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${url}/`);
  await page.waitForFunction(() => document.title === 'ready');
  console.log(`adopting all ${ITEMS.toLocaleString('en-US')} through the outbox (undo window ${GRACE_MS} ms)…`);
  type Result = Record<
    'recorded' | 'skipped' | 'enqueuedMs' | 'writtenMs' | 'storedRows' | 'sentMs' | 'sendsMax' | 'sendsDistinct' | 'failures' | 'renders',
    number
  > & {
    written: boolean;
    states: Record<string, number>;
    latencies: number[];
    writes: [number, number][];
  };
  const result = await callPage<Result>(page, 'bulkBench', { key, subscriptionId: SUBSCRIPTION, ids, graceMs: GRACE_MS });
  const rowsWritten = result.writes.reduce((sum, [n]) => sum + n, 0);
  const writeMs = result.writes.reduce((sum, [, ms]) => sum + ms, 0);

  // The service's own word: its request log (one adopt per item, answered 200) and its database.
  const logged = ids.map((id) => adopts.get(id) ?? []);
  const loggedOnce = logged.filter((statuses) => statuses.length === 1 && statuses[0] === 200).length;
  const db = openDb(dataDir);
  const rows = db
    .prepare(`SELECT feedback, COUNT(*) AS n, COUNT(DISTINCT submission_id) AS distinct_items FROM live_feedback WHERE subscription_id = ? GROUP BY feedback`)
    .all(SUBSCRIPTION) as { feedback: string; n: number; distinct_items: number }[];
  db.close();
  const adopted = rows.find((row) => row.feedback === 'adopt');
  const exactlyOnce = loggedOnce === ITEMS && adopted?.n === ITEMS && adopted.distinct_items === ITEMS && rows.length === 1;

  // After the service's word was read: these repeats are logged too.
  const floorMs = await callPage<number>(page, 'fetchFloor', { key, subscriptionId: SUBSCRIPTION, ids });

  bench.report(`Bulk adopt by query: ${ITEMS.toLocaleString('en-US')} matching live items, Chromium, real outbox + IndexedDB + local service`, [
    { metric: 'decisions recorded (skipped)', value: `${result.recorded.toLocaleString('en-US')} (${result.skipped})` },
    { metric: 'enqueueMany (in memory)', value: `${result.enqueuedMs.toFixed(0)} ms` },
    { metric: 'enqueue + write (one transaction)', value: `${result.writtenMs.toFixed(0)} ms`, ok: result.written && result.storedRows === ITEMS },
    { metric: 'until the service recorded all', value: `${(result.sentMs / 1000).toFixed(1)} s`, target: '≤ 30 s', ok: result.sentMs <= 30_000 },
    { metric: '  of which the undo window', value: `${(GRACE_MS / 1000).toFixed(1)} s` },
    { metric: 'decisions/s after the window', value: (ITEMS / ((result.sentMs - GRACE_MS) / 1000)).toFixed(0) },
    { metric: 'floor: plain fetch, 6 at a time', value: `${(ids.length / (floorMs / 1000)).toFixed(0)}/s` },
    {
      metric: 'one adopt, p50 / p95 (6 in flight)',
      value: `${percentile(result.latencies, 50).toFixed(1)} / ${percentile(result.latencies, 95).toFixed(1)} ms`,
    },
    { metric: '  the service’s own time, p50 / p95', value: `${percentile(serviceMs, 50).toFixed(1)} / ${percentile(serviceMs, 95).toFixed(1)} ms` },
    {
      metric: 'IndexedDB writes (rows, time)',
      value: `${result.writes.length} (${rowsWritten.toLocaleString('en-US')} rows, ${(writeMs / 1000).toFixed(1)} s)`,
    },
    {
      metric: 'states in the outbox',
      value: Object.entries(result.states)
        .map(([s, n]) => `${s} ${n}`)
        .join(', '),
    },
    { metric: 'sends per item (max)', value: `${result.sendsMax} over ${result.sendsDistinct.toLocaleString('en-US')} items` },
    { metric: 'service log: one 200 adopt each', value: `${loggedOnce.toLocaleString('en-US')} of ${ITEMS.toLocaleString('en-US')}` },
    { metric: 'service database: adopts', value: `${adopted?.n ?? 0} rows, ${adopted?.distinct_items ?? 0} items` },
    { metric: 'recorded exactly once', value: exactlyOnce ? 'yes' : 'NO', ok: exactlyOnce },
    { metric: 'listener calls (batched per frame)', value: String(result.renders) },
  ]);
  if (result.failures) process.exitCode = 1;
});
