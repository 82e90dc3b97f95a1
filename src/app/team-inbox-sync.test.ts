import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '../data';
import { startTeamInboxSync } from './team-inbox-sync';

const hubCall = vi.hoisted(() => vi.fn());
vi.mock('../api/hub', () => ({ hubCall }));
vi.mock('../domain/store', () => ({
  localDb: () => null,
  readSetting: async () => 0,
  writeSetting: async () => undefined,
  saveDelivered: async () => undefined,
  summaryOfLive: () => null,
  summaryOfSimulated: () => null,
}));

const hub = { id: 'hub', hub: { origin: 'http://hub' }, subscriptions: [{ id: 'sub_a', kind: 'live' }] } as unknown as Connection;
const rounds = () => hubCall.mock.calls.filter(([, path]) => String(path).startsWith('/inbox?')).length;

describe('the team inbox sync', () => {
  afterEach(() => vi.useRealTimers());

  it('reads on its interval only while the change stream is not live', async () => {
    vi.useFakeTimers();
    hubCall.mockReset();
    hubCall.mockResolvedValue({ items: [], next: 0, has_more: false });
    let live = false;
    const stop = startTeamInboxSync({ connections: () => [hub], scopeOf: async () => 'scope', intervalMs: 1_000, isLive: () => live });
    await vi.waitFor(() => expect(rounds()).toBe(1));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds()).toBe(2);
    live = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds()).toBe(2);
    live = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds()).toBe(3);
    stop();
  });

  it('tries again on its interval after a failed round, even while the stream is live', async () => {
    vi.useFakeTimers();
    hubCall.mockReset();
    hubCall.mockRejectedValueOnce(new Error('503')).mockResolvedValue({ items: [], next: 0, has_more: false });
    const stop = startTeamInboxSync({ connections: () => [hub], scopeOf: async () => 'scope', intervalMs: 1_000, isLive: () => true });
    await vi.waitFor(() => expect(rounds()).toBe(1));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds()).toBe(2);
    // That one went through: live again, the interval rests.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds()).toBe(2);
    stop();
  });
});
