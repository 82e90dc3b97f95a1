/**
 * Runs `fn` once the next frame has been painted: the work a keypress does not need before its
 * paint (writing a decision, the items' flags, a send) waits for that frame rather than delay it.
 * `requestAnimationFrame` runs just before the paint; a task queued from it runs just after. A
 * hidden tab gets no frames, so a timer stands in (whichever comes first runs `fn`, once).
 */
export function afterPaint(fn: () => void, fallbackMs = 100): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, fallbackMs);
}

type Subscribe = (listener: () => void) => () => void;

/**
 * `subscribe`'s changes, told once the next frame has painted: one wait per frame for all its
 * listeners, however many changes came in it (displays that follow a store a frame late share it).
 */
export function paintedSubscription(subscribe: Subscribe): Subscribe {
  const listeners = new Set<() => void>();
  let unsubscribe: (() => void) | null = null;
  let scheduled = false;
  const tell = () => {
    scheduled = false;
    for (const listener of [...listeners]) listener();
  };
  const changed = () => {
    if (scheduled) return;
    scheduled = true;
    afterPaint(tell);
  };
  return (listener) => {
    listeners.add(listener);
    unsubscribe ??= subscribe(changed);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        unsubscribe?.();
        unsubscribe = null;
      }
    };
  };
}
