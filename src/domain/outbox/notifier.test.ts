import { describe, expect, it, vi } from 'vitest';
import { Notifier } from './notifier';

const microtasks = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('the outbox notifier', () => {
  it('tells listeners once per burst of urgent changes, before the next paint (a microtask)', async () => {
    const notifier = new Notifier(() => undefined);
    const listener = vi.fn();
    notifier.subscribe(listener);
    notifier.notify();
    notifier.notify();
    expect(listener).not.toHaveBeenCalled();
    await microtasks();
    expect(listener).toHaveBeenCalledTimes(1);
    notifier.notify();
    await microtasks();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('tells listeners of a stream of background changes at most once a frame', () => {
    const frames: (() => void)[] = [];
    const notifier = new Notifier((fn) => frames.push(fn));
    const listener = vi.fn();
    notifier.subscribe(listener);
    for (let i = 0; i < 100; i++) notifier.notify(false);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(listener).toHaveBeenCalledTimes(1);
    notifier.notify(false);
    expect(frames).toHaveLength(1);
  });

  it('by default, tells a stream of background changes at most every tenth of a second, at a frame', async () => {
    vi.useFakeTimers();
    // Frames every 16 ms.
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => setTimeout(fn, 16));
    try {
      const notifier = new Notifier();
      const listener = vi.fn();
      notifier.subscribe(listener);
      notifier.notify(false);
      await vi.advanceTimersByTimeAsync(50);
      // Three frames have passed: none of them told it.
      expect(listener).not.toHaveBeenCalled();
      notifier.notify(false);
      await vi.advanceTimersByTimeAsync(70);
      expect(listener).toHaveBeenCalledTimes(1);
      // What the user did is not paced.
      notifier.notify();
      await microtasks();
      expect(listener).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });

  it('stops telling a listener that unsubscribed', async () => {
    const notifier = new Notifier(() => undefined);
    const listener = vi.fn();
    const unsubscribe = notifier.subscribe(listener);
    unsubscribe();
    notifier.notify();
    await microtasks();
    expect(listener).not.toHaveBeenCalled();
  });
});
