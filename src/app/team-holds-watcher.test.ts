import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamHold } from '../domain/outbox/team-holds';
import { watchTeamHolds } from './team-holds-watcher';

/** An outbox stand-in: whether the hub has decisions of the scope, and the holds it was told. */
function fakeOutbox() {
  const listeners = new Set<() => void>();
  const state = { hubOwned: false, settled: [] as (readonly TeamHold[])[] };
  return {
    state,
    outbox: {
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      hasHubOwned: () => state.hubOwned,
      settleTeamHolds: async (_scope: string, holds: readonly TeamHold[]) => {
        state.settled.push(holds);
        return 0;
      },
    },
    change(hubOwned: boolean) {
      state.hubOwned = hubOwned;
      for (const listener of listeners) listener();
    },
  };
}

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the team holds watcher', () => {
  it('reads nothing while the hub holds none of the member’s decisions; at once, then on an interval, once it does; and stops when none is left', async () => {
    const { outbox, state, change } = fakeOutbox();
    const holds = vi.fn(async () => [] as TeamHold[]);
    const stop = watchTeamHolds({ outbox, scopes: () => ['S'], holds, intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(holds).not.toHaveBeenCalled();

    change(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(1);
    expect(state.settled).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(holds).toHaveBeenCalledTimes(4);

    change(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(holds).toHaveBeenCalledTimes(4);
    stop();
  });

  it('reads on the interval only while the tab is visible, and at once when it comes back into view or gets focus', async () => {
    const { outbox, change } = fakeOutbox();
    const holds = vi.fn(async () => [] as TeamHold[]);
    const stop = watchTeamHolds({ outbox, scopes: () => ['S'], holds, intervalMs: 1_000 });
    change(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(1);

    visibility = 'hidden';
    await vi.advanceTimersByTimeAsync(10_000);
    expect(holds).toHaveBeenCalledTimes(1);

    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(3);

    stop();
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(holds).toHaveBeenCalledTimes(3);
  });

  it('runs one read at a time, and keeps going after a read that failed', async () => {
    const { outbox, state, change } = fakeOutbox();
    let release: () => void = () => undefined;
    const holds = vi
      .fn<() => Promise<readonly TeamHold[]>>()
      .mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve([]))))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue([]);
    const stop = watchTeamHolds({ outbox, scopes: () => ['S'], holds, intervalMs: 1_000 });
    change(true);
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(1);
    release();
    // The reads asked for meanwhile are one more read after it (it fails), then the interval goes on.
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(holds).toHaveBeenCalledTimes(3);
    expect(state.settled).toHaveLength(2);
    stop();
  });
});
