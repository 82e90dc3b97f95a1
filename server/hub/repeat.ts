/*
 * The hub's background chores (the decision sender, the vendor receipts reader, the pruner) run
 * the same way: a round, then a pause, then the next round; never two rounds at once, however long
 * one takes; a round's failure is logged by the chore and the next one still comes; and stopping
 * waits for the round under way, so a closing hub never leaves a half-written round behind.
 */

export interface Repeating {
  /** No round starts after this; resolves once the round under way (if any) has finished. */
  stop: () => Promise<void>;
}

export interface RepeatOptions {
  /** Run the first round at once (otherwise after the first pause). */
  now?: boolean;
  /** A chore that must never keep the process alive on its own (a daily prune). */
  unref?: boolean;
  /** What a round that threw is told as; the loop goes on either way. */
  onError: (error: Error) => void;
}

export function repeat(pauseMs: number, round: () => Promise<unknown>, options: RepeatOptions): Repeating {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const run = () => {
    if (stopped) return;
    current = Promise.resolve()
      .then(round)
      .catch((error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error))))
      .finally(schedule);
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, pauseMs);
    if (options.unref) timer.unref();
  };
  if (options.now) run();
  else schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
