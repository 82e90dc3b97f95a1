import type { CDPSession, Page } from '@playwright/test';
import type { Row } from './run';

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Milliseconds that `fn` took. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * A row for a number: printed with `digits` decimals (as is when undefined) and its unit; with
 * `max` or `min`, the target is value ≤ max or value ≥ min.
 */
export function measure(metric: string, value: number, unit = '', digits?: number, limit?: { max?: number; min?: number }): Row {
  const withUnit = (n: number | string) => `${n}${unit ? ` ${unit}` : ''}`;
  const row: Row = { metric, value: withUnit(digits === undefined ? value : value.toFixed(digits)) };
  if (limit?.max !== undefined) return { ...row, target: `≤ ${withUnit(limit.max)}`, ok: value <= limit.max };
  if (limit?.min !== undefined) return { ...row, target: `≥ ${withUnit(limit.min)}`, ok: value >= limit.min };
  return row;
}

/** Two frames: whatever the last input started is on screen. */
export const settle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

export const MB = (bytes: number) => bytes / (1024 * 1024);

/** The page's JS heap in use (bytes), after a garbage collection unless told not to. */
export async function heapUsed(cdp: CDPSession, collect = true): Promise<number> {
  if (collect) await cdp.send('HeapProfiler.collectGarbage');
  return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
}

/** The JS heap's used size, sampled every 20 ms until stopped: the peak and the samples' count. */
export function sampleHeap(cdp: CDPSession) {
  let peak = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await heapUsed(cdp, false));
      samples++;
      await new Promise((done) => setTimeout(done, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { peak, samples };
  };
}
