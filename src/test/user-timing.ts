import { performance as nodePerformance } from 'node:perf_hooks';

/**
 * The console marks its own timings (`performance.mark`/`measure`, read by the benchmarks). The
 * unit tests run each file in a VM context of one worker (vitest's vmThreads pool), where jsdom's
 * `performance` has only `now` and `timeOrigin`: Node's User Timing stands in for the rest.
 */
export function installUserTiming() {
  if (typeof globalThis.performance.measure === 'function') return;
  const { performance } = globalThis;
  Object.assign(performance, {
    mark: nodePerformance.mark.bind(nodePerformance),
    measure: nodePerformance.measure.bind(nodePerformance),
    clearMarks: nodePerformance.clearMarks.bind(nodePerformance),
    clearMeasures: nodePerformance.clearMeasures.bind(nodePerformance),
    getEntriesByName: nodePerformance.getEntriesByName.bind(nodePerformance),
    getEntriesByType: nodePerformance.getEntriesByType.bind(nodePerformance),
  });
}
