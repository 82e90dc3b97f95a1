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
 * How often, at most, a stream of background changes is told (then at the next frame): each time,
 * every display that follows the outbox renders again (the review's rows, its sums, the notices),
 * and while a run's answers stream in, a render every frame competed with the keypresses of a
 * reviewer still deciding (bench:ui, d: its decisions are sent while it runs). A row reads "adopted"
 * a tenth of a second after its answer instead of a frame after.
 */
const STREAM_PACE_MS = 100;
const streamPace = (fn: () => void): void => void setTimeout(() => nextFrame(fn), STREAM_PACE_MS);

/**
 * The outbox's listeners, told: what the user did before the next paint (a microtask), the
 * stream of answers and reads (`urgent` false) at most once per STREAM_PACE_MS, at a frame: a run of 10,000 decisions
 * answered at hundreds a second would otherwise re-render every list of decisions on each answer.
 */
export class Notifier {
  private readonly listeners = new Set<() => void>();
  private urgentQueued = false;
  private frameQueued = false;

  constructor(private readonly frame: (fn: () => void) => void = streamPace) {}

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
