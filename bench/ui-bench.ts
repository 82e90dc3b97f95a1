/**
 * `npm run bench:ui`: the review workspace in Chromium against the local service.
 * Prints median and p95 from a keypress (a, d, j) to the next item painted, the time from a
 * pull's response to a 200-item page painted, and the JS heap after reviewing 2,000 items.
 * A benchmark, not a test: it reports numbers.
 */
import { chromium, type Page } from '@playwright/test';
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, printTable, startServiceProcess } from './lib';

const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Installs the in-page probes: keypress → heading change → next paint. */
async function installProbes(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    w.__keyTimes = [] as number[];
    let pending: number | null = null;
    window.addEventListener('keydown', (event) => (pending = event.timeStamp), { capture: true });
    const afterPaint = (fn: () => void) => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = fn;
      channel.port2.postMessage(null);
    });
    new MutationObserver(() => {
      if (pending === null) return;
      const start = pending;
      pending = null;
      afterPaint(() => (w.__keyTimes as number[]).push(performance.now() - start));
    }).observe(document.querySelector('main')!, { subtree: true, characterData: true, childList: true });
  });
}

async function keyLatencies(page: Page, key: string, count: number): Promise<number[]> {
  await page.evaluate(() => ((window as unknown as { __keyTimes: number[] }).__keyTimes.length = 0));
  for (let i = 0; i < count; i++) {
    await page.keyboard.press(key);
    await page.waitForTimeout(30);
  }
  return page.evaluate(() => [...(window as unknown as { __keyTimes: number[] }).__keyTimes]);
}

/** Clicks Pull and measures from the pull response's end to the page painted with its items. */
async function pullToPaint(page: Page, urlPart: string): Promise<number> {
  await page.evaluate(() => performance.clearResourceTimings());
  const painted = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const check = () => {
          const options = document.querySelectorAll('[role="option"]').length;
          if (options > 0) requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const paintedAt = await painted;
  const responseEnd = await page.evaluate(
    (part) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes(part)).at(-1)?.responseEnd ?? NaN,
    urlPart,
  );
  return paintedAt - responseEnd;
}

async function main() {
  if (!existsSync('dist/index.html')) execSync('npx vite build', { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-bench-ui-'));
  const { url, child } = await startServiceProcess(['--port', '0', '--data', dataDir, '--static', 'dist']);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // tsx keeps function names with a helper that page.evaluate'd code does not have.
    await page.addInitScript('window.__name = (fn) => fn;');
    await page.goto(`${url}/connection`);
    await page.getByRole('button', { name: 'Use the local demo' }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();

    console.log('connected; measuring pulls…');
    // Pull response → 200-item page painted (a fresh page load each time, so nothing is cached).
    const pulls: number[] = [];
    for (const sub of ['sub_sim_retail', 'sub_sim_support', 'sub_sim_product', 'sub_sim_retail', 'sub_sim_support', 'sub_sim_product']) {
      await page.goto(`${url}/review/${sub}?limit=200`);
      pulls.push(await pullToPaint(page, '/v1/data/pull'));
    }
    for (let i = 0; i < 4; i++) {
      await page.goto(`${url}/review/sub_live_streets?mode=reread&limit=200`);
      pulls.push(await pullToPaint(page, '/v1/live/pull'));
    }

    console.log(`pull samples: ${pulls.map((p) => p.toFixed(1)).join(', ')}`);
    // Keypress → next item painted, on a 200-item simulated page.
    await page.goto(`${url}/review/sub_sim_retail?limit=200`);
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first().waitFor();
    await installProbes(page);
    const j = await keyLatencies(page, 'j', 60);
    await page.keyboard.press('Home');
    const a = await keyLatencies(page, 'a', 60);
    const d = await keyLatencies(page, 'd', 60);
    // Leave only once every decision is saved (charged ones would otherwise wait for confirmation).
    await page.getByRole('status', { name: 'Decisions: All decisions saved' }).waitFor({ timeout: 60_000 });

    console.log(`keys measured (${j.length}, ${a.length}, ${d.length} samples); reviewing 2,000 items…`);
    // Heap after reviewing 2,000 live items (incremental pulls of 200, one decision each).
    await page.goto(`${url}/review/sub_live_streets?limit=200`);
    await page.getByRole('button', { name: 'Pull', exact: true }).waitFor();
    for (let pull = 0; pull < 10; pull++) {
      await page.keyboard.press('n');
      await page.waitForFunction((n) => document.querySelector('[role="listbox"]') && document.body.innerText.includes(`${n} items from`), (pull + 1) * 200);
      for (let i = 0; i < 200; i++) await page.keyboard.press('a');
    }
    await page.getByRole('status', { name: 'Decisions: All decisions saved' }).waitFor({ timeout: 120_000 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const heapMb = heap.usedSize / 1024 / 1024;
    const domRows = await page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').count();

    const keyRows = ([['j', j], ['a', a], ['d', d]] as const).flatMap(([key, samples]) => [
      { metric: `key ${key} → next item painted, median`, value: `${percentile(samples, 50).toFixed(1)} ms`, target: '≤ 16 ms', ok: percentile(samples, 50) <= 16 },
      { metric: `key ${key} → next item painted, p95`, value: `${percentile(samples, 95).toFixed(1)} ms`, target: '≤ 50 ms', ok: percentile(samples, 95) <= 50 },
    ]);
    const pullMedian = percentile(pulls, 50);
    printTable('UI benchmark (Chromium, local service)', [
      ...keyRows,
      { metric: 'pull response → 200 items painted, median', value: `${pullMedian.toFixed(1)} ms`, target: '≤ 100 ms', ok: pullMedian <= 100 },
      { metric: 'pull response → 200 items painted, max', value: `${Math.max(...pulls).toFixed(1)} ms` },
      { metric: 'JS heap after reviewing 2,000 items', value: `${heapMb.toFixed(1)} MB`, target: '≤ 100 MB', ok: heapMb <= 100 },
      { metric: 'list rows in the DOM at 2,000 items', value: String(domRows), target: '< 100', ok: domRows < 100 },
    ]);
    writeFileSync(
      'bench/ui-results.json',
      `${JSON.stringify(
        {
          key_ms: Object.fromEntries(([['j', j], ['a', a], ['d', d]] as const).map(([k, s]) => [k, { median: percentile(s, 50), p95: percentile(s, 95), samples: s.length }])),
          pull_to_paint_ms: { median: pullMedian, max: Math.max(...pulls), samples: pulls.length },
          heap_mb_after_2000: heapMb,
          dom_rows: domRows,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
