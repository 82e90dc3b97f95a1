/**
 * `npm run bench:bulk`: bulk-adopt 10,000 matching live items, in Chromium, through the real
 * outbox engine, its real IndexedDB store and the real fetch client, against a real local service.
 *
 * The console's own pages expose nothing to drive the engine from outside, so the benchmark
 * bundles a page of its own (esbuild) from the console's modules: the outbox engine
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
 * A benchmark, not a test: it reports.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { openDb } from '../server/store/db';
import { launchBenchChromium, percentile, printTable } from './lib';

const ITEMS = Number(process.env.BULK_BENCH_ITEMS ?? 10_000);
const GRACE_MS = Number(process.env.BULK_BENCH_GRACE_MS ?? 3_000);
const SUBSCRIPTION = 'sub_bench_bulk';
const FIRST_ID = 30_000_000;
const PAGE_DIR = '.tmp/bulk-bench-page';

/** A live subscription of ITEMS small submissions. */
function writeFixture(file: string) {
  const created = Date.UTC(2026, 0, 1);
  writeFileSync(
    file,
    JSON.stringify({
      frontiers: [{ frontier_id: '9300', title: 'Bulk benchmark stream', status: 'ONLINE' }],
      tasks: [{ task_id: '9301', frontier_id: '9300', name: 'Bulk task', task_type: 'TEXT_CLASSIFICATION', status: 'COLLECTING' }],
      subscriptions: [{ subscription_id: SUBSCRIPTION, kind: 'live', frontier_id: '9300', task_ids: ['9301'], name: 'Bulk benchmark' }],
      submissions: Array.from({ length: ITEMS }, (_, i) => ({
        submission_id: String(FIRST_ID + i),
        task_id: '9301',
        data: { text: `Bulk benchmark message ${i}`, label: ['refund', 'other'][i % 2] },
        quality_score: 0.5 + (i % 50) / 100,
        quality_grade: 'ABCD'[i % 4],
        source: 'web',
        created_at: new Date(created + i * 1000).toISOString().slice(0, 19),
      })),
    }),
  );
}

/**
 * The page: writes the items into the local store as a pull does, then times a bulk adopt of
 * every matching item through the engine. Only the timings and the send counts come back.
 */
const PAGE_SOURCE = `
import { createClient } from './src/api/client';
import { bulkPreview, decisionsOf } from './src/features/bulk/preview';
import { ConsoleDb } from './src/features/local-store/db';
import { saveDelivered } from './src/features/local-store/items';
import { summaryOfLive } from './src/features/local-store/summary';
import { OutboxEngine } from './src/domain/outbox/engine';
import { indexedDbStore } from './src/domain/outbox/store';
import { toTriageRows } from './src/features/triage/triage-state';

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
  const storedSent = (await db.decisions.toArray()).filter((e) => e.state === 'sent').length;
  return {
    matching: items.length,
    recorded: recorded.length,
    skipped: skipped.length,
    enqueuedMs,
    written,
    writtenMs,
    storedRows,
    sentMs,
    states,
    storedSent,
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

async function bundlePage() {
  rmSync(PAGE_DIR, { recursive: true, force: true });
  mkdirSync(PAGE_DIR, { recursive: true });
  await build({
    stdin: { contents: PAGE_SOURCE, loader: 'ts', resolveDir: resolve('.'), sourcefile: 'bulk-bench-page.ts' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outfile: join(PAGE_DIR, 'bulk-bench.js'),
    logLevel: 'warning',
  });
  writeFileSync(join(PAGE_DIR, 'index.html'), '<!doctype html><html><head><script type="module" src="/bulk-bench.js"></script></head><body></body></html>');
}

/** The service with its request log on (method, path, status per line): the log counts the adopts it answered. */
async function startService(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', '--port', '0', '--data', dataDir, '--static', PAGE_DIR], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const adopts = new Map<string, number[]>();
  /** The service's own time per adopt (from its log). */
  const serviceMs: number[] = [];
  let out = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const listening = /listening on (http:\/\/\S+)/.exec(line);
        if (listening) resolveUrl(listening[1]!);
        const adopt = /^POST \/v1\/live\/items\/([^/]+)\/adopt (\d+) ([\d.]+)ms/.exec(line);
        if (!adopt) continue;
        adopts.set(adopt[1]!, [...(adopts.get(adopt[1]!) ?? []), Number(adopt[2])]);
        serviceMs.push(Number(adopt[3]));
      }
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { url, child, adopts, serviceMs };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-bench-bulk-'));
  const cli = (script: string, args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', `server/cli/${script}`, ...args, '--data', dataDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  await bundlePage();
  const { url, child, adopts, serviceMs } = await startService(dataDir);
  try {
    console.log(`importing ${ITEMS.toLocaleString('en-US')} live submissions…`);
    writeFixture(join(dataDir, 'bulk.json'));
    cli('fixtures.ts', ['import', join(dataDir, 'bulk.json')]);
    const key = (JSON.parse(cli('keys.ts', ['create', '--name', 'bench:bulk', '--subscriptions', SUBSCRIPTION])) as { key: string }).key;
    const ids = Array.from({ length: ITEMS }, (_, i) => String(FIRST_ID + i));

    const browser = await launchBenchChromium();
    try {
      const page = await browser.newPage();
      page.on('pageerror', (error) => console.error('page error:', error));
      await page.goto(`${url}/`);
      await page.waitForFunction(() => document.title === 'ready');
      console.log(`adopting all ${ITEMS.toLocaleString('en-US')} through the outbox (undo window ${GRACE_MS} ms)…`);
      const r = await page.evaluate((args) => (window as unknown as { bulkBench: (a: typeof args) => Promise<Record<string, unknown>> }).bulkBench(args), {
        key,
        subscriptionId: SUBSCRIPTION,
        ids,
        graceMs: GRACE_MS,
      });
      const result = r as {
        matching: number;
        recorded: number;
        skipped: number;
        enqueuedMs: number;
        written: boolean;
        writtenMs: number;
        storedRows: number;
        sentMs: number;
        states: Record<string, number>;
        storedSent: number;
        sendsMax: number;
        sendsDistinct: number;
        failures: number;
        renders: number;
        latencies: number[];
        writes: [number, number][];
      };
      const rowsWritten = result.writes.reduce((sum, [n]) => sum + n, 0);
      const writeMs = result.writes.reduce((sum, [, ms]) => sum + ms, 0);

      // The service's own word: its request log (one adopt per item, answered 200) and its database.
      const logged = ids.map((id) => adopts.get(id) ?? []);
      const loggedOnce = logged.filter((statuses) => statuses.length === 1 && statuses[0] === 200).length;
      const db = openDb(dataDir);
      const rows = db
        .prepare(
          `SELECT feedback, COUNT(*) AS n, COUNT(DISTINCT submission_id) AS distinct_items FROM live_feedback WHERE subscription_id = ? GROUP BY feedback`,
        )
        .all(SUBSCRIPTION) as { feedback: string; n: number; distinct_items: number }[];
      db.close();
      const adopted = rows.find((row) => row.feedback === 'adopt');
      const exactlyOnce = loggedOnce === ITEMS && adopted?.n === ITEMS && adopted.distinct_items === ITEMS && rows.length === 1;

      // After the service's word was read: these repeats are logged too.
      const floorMs = (await page.evaluate((args) => (window as unknown as { fetchFloor: (a: typeof args) => Promise<number> }).fetchFloor(args), {
        key,
        subscriptionId: SUBSCRIPTION,
        ids,
      })) as number;

      printTable(`Bulk adopt by query: ${ITEMS.toLocaleString('en-US')} matching live items, Chromium, real outbox + IndexedDB + local service`, [
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
      if (!exactlyOnce || result.failures) process.exitCode = 1;
    } finally {
      await browser.close();
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
