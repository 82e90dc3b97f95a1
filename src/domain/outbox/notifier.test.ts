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
