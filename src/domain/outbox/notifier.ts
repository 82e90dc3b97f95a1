/**
 * Before the next paint; a hidden tab gets no animation frames, so a timer stands in (the first
 * of the two runs it).
 */
function nextFrame(fn: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
  setTimeout(once, 100);
}

/**
 * The outbox's listeners, told: what the user did before the next paint (a microtask), the
 * stream of answers and reads (`urgent` false) at most once a frame: a run of 10,000 decisions
 * answered at hundreds a second would otherwise re-render every list of decisions on each answer.
 */
export class Notifier {
  private readonly listeners = new Set<() => void>();
  private urgentQueued = false;
  private frameQueued = false;

  constructor(private readonly frame: (fn: () => void) => void = nextFrame) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  notify(urgent = true): void {
    if (urgent) {
      if (this.urgentQueued) return;
      this.urgentQueued = true;
      queueMicrotask(() => {
        this.urgentQueued = false;
        this.emit();
      });
      return;
    }
    if (this.frameQueued) return;
    this.frameQueued = true;
    this.frame(() => {
      this.frameQueued = false;
      this.emit();
    });
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
