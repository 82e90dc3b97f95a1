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
