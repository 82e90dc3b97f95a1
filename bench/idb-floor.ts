/**
 * `npm run bench:idb-floor`: what raw IndexedDB (no Dexie, no console) costs on this machine
 * to write one 200-item page into a store that already holds 100,000 items, with the console's
 * row shapes. Each variant fills a fresh database of its own origin page by page (as Pull all new
 * does), then 20 more pages (IDB_FLOOR_PAGES) are timed from the transaction's start to its
 * `complete` event, going round the variants. A benchmark: it prints numbers.
 *
 * IDB_FLOOR_ITEMS (default 100,000) and IDB_FLOOR_VARIANTS (names separated by |) narrow a run;
 * IDB_FLOOR_PROFILE=disk uses a profile on disk (Playwright's contexts, which bench:store uses,
 * keep IndexedDB in memory).
 */
import { openContext } from './harness/browser';
import { percentile } from './harness/measure';
import { callPage, serve } from './harness/pages';
import { runBench } from './harness/run';

const ITEMS = Number(process.env.IDB_FLOOR_ITEMS ?? 100_000);
const TIMED = Number(process.env.IDB_FLOOR_PAGES ?? 20);

interface Variant {
  name: string;
  /** The scope part of every key: the console's is the base URL and the organization. */
  scope: string;
  durability?: 'default' | 'relaxed' | 'strict';
  /** One payload row per item (as the console), one per page, or none. */
  payloads: 'item' | 'page' | 'none';
  /** The items' [scope+subscriptionId+open+seq] index. */
  openIndex: boolean;
  /** Before each timed write, start a readonly transaction that counts the subscription's items (as a list or a summary would). */
  countBefore?: boolean;
  /** Add and let held ones fail (the console), or read which are held first, then put only the new ones. */
  write?: 'add' | 'get-then-put';
  /**
   * With one payload row per page, the order of requests inside the transaction: every request
   * at once (`pipelined`); the page row added first for its generated ID, then the items awaited
   * (`autoinc`, as Dexie's bulkAdd), then a counts row read and written (`autoinc+counts`); or the
   * counts row read first, numbering the page, then page and items, then the counts row written (`counts-first`).
   */
  flow?: 'pipelined' | 'autoinc' | 'autoinc+counts' | 'counts-first';
  /** With one payload row per page (pipelined), split it into this many rows (Chromium stores a value over 64 KB as a separate blob). */
  chunks?: number;
}

const LONG = 'http://127.0.0.1:43210 org_0f3c2b1a9d8e7f6a';
const VARIANTS: Variant[] = [
  { name: 'console shape', scope: LONG, payloads: 'item', openIndex: true, write: 'add' },
  { name: 'console shape, relaxed', scope: LONG, payloads: 'item', openIndex: true, durability: 'relaxed', write: 'add' },
  { name: 'console shape, strict', scope: LONG, payloads: 'item', openIndex: true, durability: 'strict', write: 'add' },
  { name: 'short scope', scope: 's1', payloads: 'item', openIndex: true, write: 'add' },
  { name: 'one payload row per page', scope: LONG, payloads: 'page', openIndex: true, write: 'add' },
  { name: 'one payload row per page, in 4 rows', scope: LONG, payloads: 'page', openIndex: true, write: 'add', chunks: 4 },
  { name: 'short scope, one payload row per page', scope: 's1', payloads: 'page', openIndex: true, write: 'add' },
  { name: 'page row, generated ID awaited', scope: LONG, payloads: 'page', openIndex: true, write: 'add', flow: 'autoinc' },
  { name: 'page row, generated ID, then counts', scope: LONG, payloads: 'page', openIndex: true, write: 'add', flow: 'autoinc+counts' },
  { name: 'page row numbered by counts read first', scope: LONG, payloads: 'page', openIndex: true, write: 'add', flow: 'counts-first' },
  { name: 'no payloads', scope: LONG, payloads: 'none', openIndex: true, write: 'add' },
  { name: 'no open index', scope: LONG, payloads: 'item', openIndex: false, write: 'add' },
  { name: 'get then put', scope: LONG, payloads: 'item', openIndex: true, write: 'get-then-put' },
  { name: 'console shape, count before', scope: LONG, payloads: 'item', openIndex: true, countBefore: true, write: 'add' },
];

// Runs in the page: one database per variant, filled and timed there.
const PAGE_SCRIPT = String.raw`
const SUB = 'sub_bench_store';
const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
const done = (tx) => new Promise((resolve, reject) => { tx.oncomplete = () => resolve(); tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error || new Error('aborted')); });

function record(i) {
  return {
    submission_id: String(20000000 + i), task_id: String(9201 + (i % 3)), campaign_id: null, frontier_id: '9200',
    data: { text: 'Store benchmark message ' + i + ': please refund order ' + (100000 + i) + '.', label: ['refund', 'other', 'complaint'][i % 3], tokens: 8 + (i % 40) },
    quality_score: Math.round((0.5 + (i % 50) / 100) * 100) / 100, quality_grade: 'ABCD'[i % 4], source: ['app', 'web', 'email'][i % 3],
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19), consumer_feedback: null,
  };
}
function row(scope, i, now, index) {
  const s = record(i);
  return {
    itemId: s.submission_id, kind: 'live', serverDecision: null, taskId: s.task_id, campaignId: null, frontierId: '9200', verticalId: null, topicId: null,
    qualityScore: s.quality_score, qualityGrade: s.quality_grade, qualityMethod: null, source: s.source, priceMicros: null, validatorCount: null,
    consensusRatio: null, createdAt: s.created_at, scope, subscriptionId: SUB, seq: now * 1000 + index, receivedAt: now, via: 'incremental', open: 1,
  };
}

async function open(name, v) {
  await request(indexedDB.deleteDatabase(name));
  const req = indexedDB.open(name, 1);
  req.onupgradeneeded = () => {
    const db = req.result;
    const items = db.createObjectStore('items', { keyPath: ['scope', 'subscriptionId', 'itemId'] });
    if (v.openIndex) items.createIndex('open', ['scope', 'subscriptionId', 'open', 'seq']);
    if (v.payloads === 'item') db.createObjectStore('payloads', { keyPath: ['scope', 'subscriptionId', 'itemId'] });
    if (v.payloads === 'page') db.createObjectStore('pages', v.flow === 'autoinc' || v.flow === 'autoinc+counts' ? { keyPath: 'id', autoIncrement: true } : { keyPath: ['scope', 'subscriptionId', 'seq'] });
    if (v.flow === 'autoinc+counts' || v.flow === 'counts-first') db.createObjectStore('counts', { keyPath: ['scope', 'subscriptionId'] });
  };
  return request(req);
}

let clock = Date.now();
async function writePage(db, v, from) {
  const now = ++clock;
  const rows = Array.from({ length: 200 }, (_, k) => row(v.scope, from + k, now, k));
  const stores = ['items', ...(v.payloads === 'item' ? ['payloads'] : v.payloads === 'page' ? ['pages'] : []), ...(v.flow === 'autoinc+counts' || v.flow === 'counts-first' ? ['counts'] : [])];
  const reading = v.countBefore ? request(db.transaction('items', 'readonly').objectStore('items').count(IDBKeyRange.bound([v.scope, SUB], [v.scope, SUB, []]))) : null;
  const start = performance.now();
  const tx = db.transaction(stores, 'readwrite', v.durability ? { durability: v.durability } : undefined);
  const items = tx.objectStore('items');
  const fresh = [];
  if (v.flow && v.flow !== 'pipelined') {
    const pages = tx.objectStore('pages');
    const counts = v.flow === 'autoinc' ? null : tx.objectStore('counts');
    const countKey = [v.scope, SUB];
    const first = v.flow === 'counts-first' ? await request(counts.get(countKey)) : null;
    const page = v.flow === 'counts-first' ? (first?.pages ?? 0) : await request(pages.add({ scope: v.scope, subscriptionId: SUB, records: rows.map((r, k) => record(from + k)) }));
    if (v.flow === 'counts-first') pages.put({ scope: v.scope, subscriptionId: SUB, seq: page, records: rows.map((r, k) => record(from + k)) });
    await Promise.all(rows.map((r) => new Promise((resolve) => { const add = items.add({ ...r, page }); add.onsuccess = resolve; add.onerror = (e) => { e.preventDefault(); e.stopPropagation(); resolve(); }; })));
    if (counts) {
      const count = v.flow === 'counts-first' ? first : await request(counts.get(countKey));
      counts.put({ scope: v.scope, subscriptionId: SUB, total: (count?.total ?? 0) + 200, open: (count?.open ?? 0) + 200, pages: page + 1 });
    }
    await done(tx);
    const ms = performance.now() - start;
    await reading;
    return ms;
  }
  if (v.write === 'get-then-put') {
    const held = await Promise.all(rows.map((r) => request(items.getKey([r.scope, r.subscriptionId, r.itemId]))));
    rows.forEach((r, k) => { if (held[k] === undefined) { items.put(r); fresh.push(k); } });
  } else {
    rows.forEach((r, k) => {
      const add = items.add(r);
      add.onerror = (e) => { e.preventDefault(); e.stopPropagation(); };
      fresh.push(k);
    });
  }
  if (v.payloads === 'item') { const p = tx.objectStore('payloads'); for (const k of fresh) p.put({ scope: v.scope, subscriptionId: SUB, itemId: rows[k].itemId, record: record(from + k) }); }
  if (v.payloads === 'page') {
    const chunks = v.chunks ?? 1;
    const size = Math.ceil(fresh.length / chunks);
    for (let c = 0; c < chunks; c++) tx.objectStore('pages').put({ scope: v.scope, subscriptionId: SUB, seq: now * 1000 + c, records: fresh.slice(c * size, (c + 1) * size).map((k) => record(from + k)) });
  }
  await done(tx);
  const ms = performance.now() - start;
  await reading;
  return ms;
}

let db = null;
let variant = null;
window.fill = async ([v, total]) => {
  variant = v;
  db = await open('floor', v);
  const fill = [];
  const t0 = performance.now();
  for (let n = 0; n < total; n += 200) fill.push(await writePage(db, v, n));
  return { fill, fillSeconds: (performance.now() - t0) / 1000 };
};
window.timedPage = (from) => writePage(db, variant, from);
`;

runBench('idb-floor', async (bench) => {
  const only = process.env.IDB_FLOOR_VARIANTS?.split('|').map((s) => s.trim());
  const variants = only ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS;
  // One origin (port) per variant: Chromium keeps one LevelDB per origin, so no variant writes
  // into another's files (or counts against its quota).
  const origins = await Promise.all(
    variants.map(() =>
      serve(bench, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>IndexedDB floor</title><script>${PAGE_SCRIPT}</script>`);
      }),
    ),
  );
  const onDisk = process.env.IDB_FLOOR_PROFILE === 'disk';
  const context = await openContext(bench, { onDisk });
  const pages = [];
  const results: { variant: Variant; fill: number[]; fillSeconds: number; writes: number[] }[] = [];
  for (const [i, variant] of variants.entries()) {
    const page = await context.newPage();
    await page.goto(`${origins[i]}/`);
    const filled = await callPage<{ fill: number[]; fillSeconds: number }>(page, 'fill', [variant, ITEMS]);
    console.log(`${variant.name}: filled in ${filled.fillSeconds.toFixed(0)} s`);
    pages.push(page);
    results.push({ variant, ...filled, writes: [] });
  }
  // The timed pages go round the variants, so each round of comparisons meets the same load on
  // this shared machine.
  for (let n = 0; n < TIMED; n++) for (const [i, page] of pages.entries()) results[i]!.writes.push(await callPage<number>(page, 'timedPage', ITEMS + n * 200));
  const rows = results.map(({ variant, fill, fillSeconds, writes }) => ({
    metric: `${variant.name}: p50 / p95 at ${ITEMS.toLocaleString('en-US')}`,
    value: `${percentile(writes, 50).toFixed(1)} / ${percentile(writes, 95).toFixed(1)} ms (empty: ${percentile(fill.slice(0, 20), 50).toFixed(1)} ms, fill ${fillSeconds.toFixed(0)} s)`,
  }));
  bench.report(`Raw IndexedDB: one 200-item page into a full store (profile ${onDisk ? 'on disk' : 'in memory'})`, rows);
});
