import { vi } from 'vitest';

/**
 * Stands in for ResizeObserver (jsdom lays nothing out). With `contentRect`, each element is
 * reported as soon as it is observed, with that size, as a browser reports it after its first
 * layout; with `null`, nothing is ever reported (a browser's report not come yet). Undo with
 * `vi.unstubAllGlobals()`.
 */
export function stubResizeObserver(contentRect: { width: number; height: number } | null) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private callback: ResizeObserverCallback) {}
      observe(target: Element) {
        if (contentRect) this.callback([{ target, contentRect } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    },
  );
}
