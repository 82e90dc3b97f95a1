/**
 * `npm run bench:ui`: the review workspace in Chromium against the local service.
 * Prints median and p95 from a keypress (a, d, j) to the next item painted, the time from a
 * pull's response to a 200-item page painted, and the JS heap after reviewing 2,000 items.
 *
 * `BENCH_UI_ONLY=pull,keys,visit` (any of them) runs only those measures: the 10,000-item visit
 * alone takes minutes, which is long to wait for a pull's figure while working on it.
 * `BENCH_UI_PORT=N` runs the service on port N instead of any free one.
 */
import type { Page } from '@playwright/test';
import { connect, newContext, openContext, VIEWPORT } from './harness/browser';
import { heapUsed, measure, MB, percentile } from './harness/measure';
import { runBench, type Row } from './harness/run';
import { liveStream, startService } from './harness/service';
import { seededRandom, uniformBelow } from '../src/features/sampling/random-sample';

/** How long to wait after a press before the next one, drawn per press. */
type Pace = () => number;

/**
 * A person's pace: each wait drawn uniformly from `min` to `max` ms (by default 40 to 140, about 50
 * to 150 ms key to key: a quick person's, 7 to 20 keys a second; the table prints it), by a seeded
 * generator (the sampling's mulberry32), so every run draws the same waits. Whether a press's frame
 * starts at once or waits for the next vsync depends on where it lands against the frames the press
 * before it left (docs/architecture.md): at one fixed pace every press lands at about the same
 * place, and the series measures that place rather than the page. Drawn waits put the presses all
 * over it, as a person's do.
 */
function personPace(seed: number, min = 40, max = 140): Pace {
  const random = seededRandom(seed);
  return () => min + uniformBelow(max - min + 1, random);
}

/** bench:ui's pace until 2026-12-05: 40 ms after each press (~50 ms key to key), 30 ms between d and its Enter. */
const fixedPace =
  (ms: number): Pace =>
  () =>
    ms;

interface KeySample {
  /** Keypress → the paint (rendering update) that showed the next item: its title and, if it has one, its image. */
  painted: number;
  /** Keypress → its handlers and the render they caused done (the keydown's own work). */
  handled: number;
  /** Keypress → that frame on screen (presentation). */
  presented: number;
}

/**
 * Installs the in-page probes. The times come from the browser itself: each keydown's
 * `timeStamp`, and the Element Timing entries of the review's item titles and images
 * (`elementtiming`), which carry the paint time of the frame that first showed them and
 * that frame's presentation time. Chromium before `paintTime` shipped reports `renderTime`.
 */
async function installProbes(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    w.__keys = [] as number[];
    // Every keydown's time, the opener's too: the time from the key before is measured, not assumed.
    w.__all = [] as number[];
    w.__focused = [] as string[];
    w.__before = [] as string[];
    w.__handled = [] as number[];
    w.__since = [] as number[];
    w.__paints = [] as { id: string; item: string; paint: number; present: number }[];
    // Over the start of the item's title, which each press paints again: a mark adds no area to raster.
    const marks = document.createElement('div');
    const title = document.querySelector('[aria-label="Focused item"] h2')!.getBoundingClientRect();
    marks.style.cssText = `position:absolute;left:${title.left + scrollX}px;top:${title.top + scrollY}px;width:8px;height:8px;contain:strict;pointer-events:none`;
    document.body.append(marks);
    w.__marks = marks;
    // The key that only opens a dialog before the measured one (d before its Enter) is not a sample.
    // Per press, the item focused when the frame after it begins: that frame paints it. Asked from
    // the keydown, whose own change has asked for that frame already, so the probe asks for none:
    // a probe that asked for a frame of its own after each press (a rAF from the test) kept the
    // compositor ticking, and the next press waited for a vsync instead of starting a frame at once
    // (j painted at +14 ms with it, +6 ms without, same build, traced).
    window.addEventListener(
      'keydown',
      (event) => {
        const all = w.__all as number[];
        const since = all.length > 0 ? event.timeStamp - all[all.length - 1]! : Number.NaN;
        all.push(event.timeStamp);
        if (event.key === w.__opener) return;
        const at = (w.__keys as number[]).push(event.timeStamp) - 1;
        (w.__since as number[])[at] = since;
        // The item focused before the press (this listener runs before the review's): a press that
        // moved nothing is no sample, however fast its mark was painted.
        const titleOf = () => document.querySelector('[aria-label="Focused item"] h2')?.getAttribute('elementtiming') ?? '';
        (w.__before as string[])[at] = titleOf();
        // A mark of this press, painted by the frame after it: the review renders a key's change
        // within its keydown, so the same frame paints the next item. Chromium drops a title's
        // Element Timing entry when the title is removed before its frame is presented (the next
        // press removes it ~50 ms after this one): those are the presses presented latest, and
        // without the mark they went unmeasured (0 of 60 at 150 ms from press to press, 5 to 10 at
        // bench:ui's pace, 34 at 28 ms), which left the slowest out of the percentiles. Each mark
        // stays until the series is read, in a box of its own (contain: strict), so adding one lays
        // out nothing else.
        const mark = document.createElement('span');
        mark.textContent = '.';
        mark.setAttribute('elementtiming', `bench-press ${at}`);
        mark.style.cssText = 'position:absolute;left:0;top:0;font:8px/1 monospace;color:#94a3b8';
        (w.__marks as HTMLElement).append(mark);
        // Registered last, in the bubble phase on window: it runs after the review's handlers and
        // the render they caused (React renders a key's update in a microtask at the end of its
        // listener). A key whose handler stops it (the reason picker's Enter) is not timed.
        (w.__handled as number[])[at] = Number.NaN;
        const done = (e: Event) => {
          if (e === event) (w.__handled as number[])[at] = performance.now() - event.timeStamp;
        };
        window.addEventListener('keydown', done);
        setTimeout(() => window.removeEventListener('keydown', done));
        requestAnimationFrame(() => {
          (w.__focused as string[])[at] = titleOf();
        });
      },
      { capture: true },
    );
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        identifier: string;
        renderTime: number;
        paintTime?: number;
        presentationTime?: number;
      })[]) {
        // The review names each title and image "<kind> <item key>".
        const space = entry.identifier.indexOf(' ');
        (w.__paints as unknown[]).push({
          id: entry.identifier.slice(0, space),
          item: entry.identifier.slice(space + 1),
          paint: entry.paintTime ?? entry.renderTime,
          present: entry.presentationTime ?? entry.renderTime,
        });
      }
    }).observe({ type: 'element', buffered: false });
  });
}

/**
 * Presses `key` `count` times, waiting `pace` after each; per press, when the item it moved to was
 * painted and presented. `opener`: a key pressed before each measured one (its own wait after it)
 * and not measured itself (d opens the reason picker; its Enter decides).
 */
async function keyLatencies(
  page: Page,
  key: string,
  count: number,
  pace: Pace,
  opener?: { key: string; pace: Pace },
): Promise<{ samples: KeySample[]; unmatched: number; apart: number; byMark: number; since: number[] }> {
  await page.evaluate((o) => {
    const w = window as unknown as {
      __keys: number[];
      __all: number[];
      __since: number[];
      __handled: number[];
      __focused: string[];
      __before: string[];
      __paints: unknown[];
      __marks: HTMLElement;
      __opener: string | null;
    };
    w.__keys.length = 0;
    w.__all.length = 0;
    w.__since.length = 0;
    w.__handled.length = 0;
    w.__focused.length = 0;
    w.__before.length = 0;
    w.__paints.length = 0;
    w.__marks.replaceChildren();
    w.__opener = o;
  }, opener?.key ?? null);
  for (let i = 0; i < count; i++) {
    if (opener) {
      await page.keyboard.press(opener.key);
      await page.waitForTimeout(opener.pace());
    }
    await page.keyboard.press(key);
    await page.waitForTimeout(pace());
  }
  await page.waitForTimeout(200);
  const { keys, since, handled, focused, before, paints } = await page.evaluate(() => {
    const w = window as unknown as {
      __keys: number[];
      __since: number[];
      __handled: number[];
      __focused: string[];
      __before: string[];
      __paints: { id: string; item: string; paint: number; present: number }[];
    };
    return {
      keys: [...w.__keys],
      since: [...w.__since],
      handled: [...w.__handled],
      focused: [...w.__focused],
      before: [...w.__before],
      paints: [...w.__paints],
    };
  });
  const focusedItems = focused.map((title) => (title ? title.slice(title.indexOf(' ') + 1) : undefined));
  const samples: KeySample[] = [];
  let unmatched = 0;
  let apart = 0;
  let byMark = 0;
  keys.forEach((pressedAt, i) => {
    // A press is a sample only if the frame after it showed another item than before it: one that
    // changed nothing (j on the last item, an Enter with no picker open) is no sample, however soon
    // an entry of the press before it (its title, painted late) came after it.
    const moved = focused[i] !== undefined && focused[i] !== '' && focused[i] !== before[i];
    if (!moved) {
      unmatched++;
      return;
    }
    const item = focusedItems[i];
    const after = paints.filter((p) => p.paint >= pressedAt);
    // The item's title tells the frame that showed it, and its image too when one was painted then.
    // Chromium drops the title's entry when the next press removed the title before its frame was
    // presented (see the marks, above); the press's mark, painted by the same frame, then tells it
    // (checked: a press with both has them in one frame, and the run fails if one does not). Before
    // the marks, such presses went unmeasured. A press replaced before any frame showed its item
    // reads the item that frame showed (focused is read then), and counts until it was painted.
    const title = after.find((p) => p.id === 'review-item' && p.item === item);
    const image = after.find((p) => p.id === 'delivered-image' && p.item === item);
    // Its own mark: painted after the press (an earlier series' late entry has the same name).
    const mark = after.find((p) => p.id === 'bench-press' && p.item === String(i));
    if (title && mark && title.paint !== mark.paint) apart++;
    if (!title && mark) byMark++;
    const parts = [title ?? mark, image].filter((p) => p !== undefined);
    if (parts.length === 0) {
      unmatched++;
      return;
    }
    samples.push({
      handled: handled[i] ?? Number.NaN,
      painted: Math.max(...parts.map((p) => p.paint)) - pressedAt,
      presented: Math.max(...parts.map((p) => p.present)) - pressedAt,
    });
  });
  return { samples, unmatched, apart, byMark, since: since.filter((n) => !Number.isNaN(n)) };
}

interface PullSample {
  /** Response end → the paint of the frame that showed the page: its first item's title (Element Timing), painted with the list's rows. */
  painted: number;
  /** Response end → a task after the frame after the one that first had options (the earlier measure: an upper bound, one frame and any task queued then later). */
  frameAfter: number;
  /** Response end → the paint of the focused item's image (its Element Timing entry), if it has one: the content shown, fetched after the viewer is made. */
  image: number;
  /** The card showed that it could not read the focused item's content from the store (then `image` is NaN). */
  contentFailed: boolean;
}

/**
 * Clicks Pull (or `button`, e.g. Next page) and measures from the pull response's end to the page
 * painted with its items.
 */
async function pullToPaint(page: Page, urlPart: string, button = 'Pull'): Promise<PullSample> {
  await page.evaluate(() => performance.clearResourceTimings());
  // Painted when the list shows the new items: options appear (a re-read page), or the count of
  // items kept on this device grows (lists from the local store may show earlier items already).
  // The focused item's title, rendered with the list in one commit, says when that frame was
  // painted (its Element Timing entry: each sample starts from an empty store, so the page's first
  // item is a new title); the frame after it, when the page went on.
  const painted = page.evaluate(
    () =>
      new Promise<{ painted: number; frameAfter: number; image: number; contentFailed: boolean }>((resolve) => {
        // textContent, not innerText: read in the frame being measured, innerText laid the page out
        // ahead of that frame and walked all of its text, inside the time measured.
        const kept = () => Number(/([\d,]+) items? kept on this device/.exec(document.body.textContent ?? '')?.[1]?.replace(/,/g, '') ?? 0);
        const before = kept();
        const titles: { item: string; at: number }[] = [];
        const images = new Map<string, number>();
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number; paintTime?: number })[]) {
            const at = entry.paintTime ?? entry.renderTime;
            if (entry.identifier.startsWith('review-item ')) titles.push({ item: entry.identifier.slice('review-item '.length), at });
            if (entry.identifier.startsWith('delivered-image ')) images.set(entry.identifier.slice('delivered-image '.length), at);
          }
        }).observe({ type: 'element', buffered: false });
        // The focused item's image painted (NaN for an item without one): asked once its content is in the card.
        // Content the card could not read from the store shows an alert instead: that is told, not waited for.
        let contentFailed = false;
        const imagePainted = (item: string, done: (at: number) => void) => {
          const wait = () => {
            if (images.has(item)) return done(images.get(item)!);
            const card = document.querySelector('[aria-label="Focused item"] [data-item-content]');
            const content = card?.querySelector('section[aria-label="Delivered content"]');
            if (content && !content.querySelector('img[elementtiming^="delivered-image"]')) return done(Number.NaN);
            if (card?.querySelector(':scope > div > [role="alert"]')) {
              contentFailed = true;
              return done(Number.NaN);
            }
            requestAnimationFrame(wait);
          };
          wait();
        };
        const check = () => {
          const options = document.querySelectorAll('[role="option"]').length;
          if (options > 0 && (before === 0 || kept() > before))
            requestAnimationFrame(() =>
              setTimeout(() => {
                const frameAfter = performance.now();
                // The title's entry may be told after this task: wait for it.
                const told = () =>
                  titles.length
                    ? imagePainted(titles[0]!.item, (image) => resolve({ painted: titles[0]!.at, frameAfter, image, contentFailed }))
                    : requestAnimationFrame(told);
                told();
              }, 0),
            );
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
  await page.getByRole('button', { name: button, exact: true }).click();
  const times = await painted;
  const responseEnd = await page.evaluate(
    (part) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes(part)).at(-1)?.responseEnd ?? NaN,
    urlPart,
  );
  return {
    painted: times.painted - responseEnd,
    frameAfter: times.frameAfter - responseEnd,
    image: times.image - responseEnd,
    contentFailed: times.contentFailed,
  };
}

const VISIT_ITEMS = 10_000;

/** A live subscription of 10,000 small text submissions, for one visit that reviews them all. */
const visitFixture = () => ({
  ...liveStream({
    frontier: '9100',
    title: 'Benchmark stream',
    tasks: { '9101': 'Benchmark labels' },
    type: 'TEXT_CLASSIFICATION',
    subscription: 'sub_bench_visit',
    name: 'Benchmark visit',
  }),
  submissions: Array.from({ length: VISIT_ITEMS }, (_, i) => ({
    submission_id: String(9_000_000 + i),
    task_id: '9101',
    data: { text: `Benchmark message ${i}: is this a refund request?`, label: i % 3 === 0 ? 'refund' : 'other', tokens: i % 40 },
    quality_score: 0.8 + (i % 20) / 100,
    quality_grade: 'A',
    source: 'bench',
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  })),
});

/** How many of a live subscription's submissions the service records as adopted (a full re-read). */
async function adoptedByService(url: string, key: string, subscriptionId: string): Promise<number> {
  let adopted = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ subscription_id: subscriptionId, from: 'beginning', limit: '200', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${url}/v1/live/pull?${query}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { data: { items: { consumer_feedback: string | null }[]; next_cursor: string | null } };
    adopted += body.data.items.filter((item) => item.consumer_feedback === 'adopt').length;
    cursor = body.data.next_cursor;
  } while (cursor);
  return adopted;
}

const MEASURES = ['pull', 'keys', 'visit'] as const;
type Measure = (typeof MEASURES)[number];
const only = process.env.BENCH_UI_ONLY?.split(',').map((m) => m.trim());
const unknownMeasure = only?.find((m) => !(MEASURES as readonly string[]).includes(m));
if (unknownMeasure) throw new Error(`BENCH_UI_ONLY: unknown measure "${unknownMeasure}" (known: ${MEASURES.join(', ')})`);
const runs = (m: Measure) => !only || only.includes(m);

runBench('ui', async (bench) => {
  // BENCH_UI_PORT pins the service's port (a shared machine may reserve ranges); by default any free one.
  const service = await startService(bench, { static: 'dist', port: process.env.BENCH_UI_PORT });
  const { url } = service;
  // Imported next to the demo (the service has seeded it) before the console connects, so the key's subscriptions include it.
  service.importFixture('visit', visitFixture());
  const benchKey = service.createKey('bench:ui', ['sub_bench_visit']);
  const context = await openContext(bench, { viewport: VIEWPORT });
  const page = await context.newPage();
  await connect(page, url, { key: benchKey, subscriptionId: 'sub_bench_visit' });
  const connected = await context.storageState();
  const keyRows: Row[] = [];
  const pullRows: Row[] = [];
  const visitRows: Row[] = [];

  if (runs('pull')) {
    // Pull response → 200-item page painted (the page stored, then shown). Each sample the first
    // pull in a fresh context: nothing cached, no code run yet, and an empty local store (a re-pull
    // of the same pending items would add nothing to show).
    console.log('connected; measuring pulls…');
    const pulls: PullSample[] = [];
    const samples = [
      ...['sub_sim_retail', 'sub_sim_support', 'sub_sim_product', 'sub_sim_retail', 'sub_sim_support', 'sub_sim_product'].map((sub) => [
        `/review/${sub}?limit=200`,
        '/v1/data/pull',
      ]),
      ...Array.from({ length: 4 }, () => ['/review/sub_live_streets?mode=reread&limit=200', '/v1/live/pull']),
    ] as const;
    // A fresh context is a browser the console never ran in: the offline shell's worker installs
    // there, fetching every file of the build, and that install ran during the pull (about 30 ms of
    // the median on a 2-core machine). A person pays it once per browser and build, not per pull:
    // each sample waits until the worker is in place, as on any visit after the first.
    const freshReview = async (path: string) => {
      const fresh = await newContext(context.browser()!, { viewport: VIEWPORT, storageState: connected });
      const freshPage = await fresh.newPage();
      await freshPage.goto(`${url}${path}`);
      await freshPage.evaluate(() => navigator.serviceWorker.ready);
      return { fresh, freshPage };
    };
    for (const [path, endpoint] of samples) {
      const { fresh, freshPage } = await freshReview(path!);
      pulls.push(await pullToPaint(freshPage, endpoint!));
      await fresh.close();
    }
    // A later pull in the same page (a reviewer pulls again and again in one visit): the list's and
    // the item's code has run once already. Re-read pages of the visit's stream, one after another.
    const later: number[] = [];
    const { fresh, freshPage } = await freshReview('/review/sub_bench_visit?mode=reread&limit=200');
    await pullToPaint(freshPage, '/v1/live/pull');
    const nextPage = freshPage.getByRole('button', { name: 'Next page', exact: true });
    for (let i = 0; i < 4; i++) {
      await nextPage.and(freshPage.locator(':enabled')).waitFor();
      later.push((await pullToPaint(freshPage, '/v1/live/pull', 'Next page')).painted);
    }
    await fresh.close();
    const painted = pulls.map((p) => p.painted);
    const frameAfter = pulls.map((p) => p.frameAfter);
    const image = pulls.map((p) => p.image).filter((i) => !Number.isNaN(i));
    console.log(`pull samples: ${painted.map((p) => p.toFixed(1)).join(', ')}`);
    console.log(`pull samples, the frame after: ${frameAfter.map((p) => p.toFixed(1)).join(', ')}`);
    console.log(`pull samples, the focused item's image painted (items with one): ${image.map((p) => p.toFixed(1)).join(', ')}`);
    console.log(`later pull samples: ${later.map((p) => p.toFixed(1)).join(', ')}`);
    pullRows.push(
      measure('pull response → 200 items painted, median', percentile(painted, 50), 'ms', 1, { max: 50 }),
      measure('pull response → 200 items painted, max', Math.max(...painted), 'ms', 1),
      measure('pull response → the frame after, median', percentile(frameAfter, 50), 'ms', 1),
      // What the reviewer judges: the item's image, fetched once its viewer is made (a change that paints the list sooner can show it later).
      measure(`pull response → the focused item's image painted, median (${image.length} of ${pulls.length})`, percentile(image, 50), 'ms', 1),
      measure('a later pull in the page → 200 items painted, median', percentile(later, 50), 'ms', 1),
      // A card that could not read its item's content is a failure of the pull, not a sample without an image.
      {
        metric: "pulls whose focused item's content could not be read",
        value: String(pulls.filter((p) => p.contentFailed).length),
        target: '0',
        ok: pulls.every((p) => !p.contentFailed),
      },
    );
  }

  if (runs('keys')) {
    // Keypress → next item painted, on a 200-item simulated page (items with images).
    await page.goto(`${url}/review/sub_sim_retail?limit=200`);
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').first().waitFor();
    await installProbes(page);
    // Each series with whether the targets apply to it: those at a person's pace. d opens
    // the reason picker (live and simulated alike); Enter alone disputes and moves on: that is the
    // sample. Measured too, in rows without a target (their verdict shown, not applied): the old
    // fixed pace, for j and d (for d it made the figure: its Enter, 30 ms after d, ~40 key to key,
    // landed in the vsync interval in which the renderer stops asking for frames after the
    // picker's, and waited for the next tick in about half the presses), and a reviewer who looks
    // at each item, for d. Each untargeted series runs before the targeted one after it, so the
    // targeted one has the more decisions being sent behind it. 200 items: j moves without
    // deciding; a decides 60, d 60 + 60 + 15.
    const keys: [string, Awaited<ReturnType<typeof keyLatencies>>, boolean][] = [];
    keys.push(['j (fixed pace)', await keyLatencies(page, 'j', 60, fixedPace(40)), false]);
    keys.push(['j', await keyLatencies(page, 'j', 60, personPace(1)), true]);
    await page.keyboard.press('Home');
    keys.push(['a', await keyLatencies(page, 'a', 60, personPace(2)), true]);
    keys.push(['d (fixed pace, Enter 30 ms after d)', await keyLatencies(page, 'Enter', 60, fixedPace(40), { key: 'd', pace: fixedPace(30) }), false]);
    keys.push(['d', await keyLatencies(page, 'Enter', 60, personPace(3), { key: 'd', pace: personPace(4) }), true]);
    keys.push([
      'd (slow pace, 300-1,500 ms)',
      await keyLatencies(page, 'Enter', 15, personPace(5, 300, 1_500), { key: 'd', pace: personPace(6, 300, 1_500) }),
      false,
    ]);
    // Leave only once every decision is saved (charged ones would otherwise wait for confirmation).
    await page.getByRole('status', { name: 'Decisions: All decisions saved' }).waitFor({ timeout: 60_000 });
    console.log(`keys measured (${keys.map(([, k]) => k.samples.length).join(', ')} samples)`);
    for (const [key, { samples, unmatched, apart, byMark, since }, targeted] of keys) {
      const painted = samples.map((s) => s.painted);
      const presented = samples.map((s) => s.presented);
      const handled = samples.map((s) => s.handled).filter((h) => !Number.isNaN(h));
      // Issue 22's targets apply to the targeted series; the others show their verdict without it.
      const target = (row: Row): Row =>
        targeted ? row : { metric: row.metric, value: row.value, target: `(${row.target}: ${row.ok ? 'would pass' : 'would miss'})` };
      keyRows.push(
        measure(`key ${key}: from the key before it, median`, percentile(since, 50), 'ms', 0),
        // Where the painted time goes: the keydown's own work (handlers and React's render and commit), then the frame.
        ...(handled.length > 0 ? [measure(`key ${key} → its handlers and render done, median`, percentile(handled, 50), 'ms', 1)] : []),
        // Issue 22's targets: a keypress paints its item within half a frame, and is on screen within one.
        target(measure(`key ${key} → next item painted, median`, percentile(painted, 50), 'ms', 1, { max: 7 })),
        target(measure(`key ${key} → next item painted, p95`, percentile(painted, 95), 'ms', 1, { max: 33 })),
        target(measure(`key ${key} → that frame on screen, median`, percentile(presented, 50), 'ms', 1, { max: 16.7 })),
        measure(`key ${key} → that frame on screen, p95`, percentile(presented, 95), 'ms', 1),
        // A press followed by no painted item at all is a broken measurement, not a fast one.
        {
          metric: `key ${key} presses measured`,
          value: `${samples.length}/${samples.length + unmatched}`,
          target: '≥ 90%',
          ok: samples.length >= 0.9 * (samples.length + unmatched),
        },
        // Chromium dropped their title's entry (see installProbes): timed by their mark.
        { metric: `key ${key} presses timed by their mark`, value: String(byMark), target: '', ok: true },
        // The mark stands in for the title only if the same frame paints both.
        { metric: `key ${key} presses whose title and mark two frames painted`, value: String(apart), target: '0', ok: apart === 0 },
      );
    }
  }

  if (runs('visit')) {
    console.log('reviewing 2,000 items…');
    // One visit: incremental pulls of 200, one decision each, to 10,000 items. The heap after 2,000
    // (the target), then after 10,000 with the list's rows in the DOM.
    await page.goto(`${url}/review/sub_bench_visit?limit=200`);
    await page.getByRole('button', { name: 'Pull', exact: true }).waitFor();
    const cdp = await context.newCDPSession(page);
    const heapNow = async () => {
      await page.getByRole('status', { name: 'Decisions: All decisions saved' }).waitFor({ timeout: 120_000 });
      return MB(await heapUsed(cdp));
    };
    let heapMb = NaN;
    const visitStart = Date.now();
    for (let pull = 0; pull < VISIT_ITEMS / 200; pull++) {
      await page.keyboard.press('n');
      await page.waitForFunction(
        (n) => document.querySelector('[role="listbox"]') && document.body.innerText.includes(`${n.toLocaleString()} items kept on this device`),
        (pull + 1) * 200,
      );
      for (let i = 0; i < 200; i++) await page.keyboard.press('a');
      if ((pull + 1) * 200 === 2_000) {
        heapMb = await heapNow();
        console.log(`2,000 items reviewed; heap ${heapMb.toFixed(1)} MB; going on to ${VISIT_ITEMS.toLocaleString('en-US')}…`);
      }
    }
    const visitHeapMb = await heapNow();
    const visitSeconds = (Date.now() - visitStart) / 1000;
    const domRows = await page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option').count();
    const adopted = await adoptedByService(url, benchKey, 'sub_bench_visit');
    const visit = VISIT_ITEMS.toLocaleString('en-US');
    visitRows.push(
      measure('JS heap after reviewing 2,000 items', heapMb, 'MB', 1, { max: 100 }),
      measure(`JS heap after reviewing ${visit} items`, visitHeapMb, 'MB', 1),
      { metric: `list rows in the DOM at ${visit} items`, value: String(domRows), target: '< 100', ok: domRows < 100 },
      {
        metric: 'adoptions the service recorded in that visit',
        value: `${adopted.toLocaleString('en-US')}/${visit}`,
        target: 'all',
        ok: adopted === VISIT_ITEMS,
      },
      measure(`time to review ${visit} items by keyboard`, visitSeconds, 's', 0),
    );
  }
  bench.report('UI benchmark (Chromium, local service)', [...keyRows, ...pullRows, ...visitRows]);
});
