import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { HUB_LIVE_KEY, type HubLive } from '../data';
import { startHubLive } from './live-stream';

const inboxSync = vi.hoisted(() => vi.fn());
vi.mock('./team-inbox-request', () => ({ requestTeamInboxSync: inboxSync }));

/** An EventSource the test speaks through. */
class FakeSource {
  static CONNECTING = 0;
  static last: FakeSource;
  readyState = 1;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, (message: MessageEvent<string>) => void>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {}
}

const change = (seq: number, action: string) => ({
  seq,
  at: '2026-11-27T10:00:00Z',
  action,
  subscription_id: 'sub',
  item_id: null,
  target: null,
  actor: null,
  outcome: 'ok',
});

describe('the change stream as the console reads it', () => {
  it('keeps the newest lease change when later changes of other kinds follow it before anyone reads', () => {
    const queryClient = new QueryClient();
    const live = startHubLive({ origin: 'http://hub', queryClient, EventSource: FakeSource as unknown as typeof EventSource });
    FakeSource.last.emit('ready', { head: 0 });
    FakeSource.last.emit('change', change(1, 'lease.take'));
    FakeSource.last.emit('change', change(2, 'lease.revoke'));
    FakeSource.last.emit('change', change(3, 'v1.adopt'));
    const read = queryClient.getQueryData<HubLive>(HUB_LIVE_KEY)!;
    expect(read.last?.seq).toBe(3);
    expect(read.leaseSeq).toBe(2);
    live.stop();
  });

  it('reads the team inbox once when a first stream opens (it starts at the head), not when the browser resumes one', () => {
    inboxSync.mockClear();
    const queryClient = new QueryClient();
    const live = startHubLive({ origin: 'http://hub', queryClient, EventSource: FakeSource as unknown as typeof EventSource });
    FakeSource.last.emit('ready', { head: 4 });
    expect(inboxSync).toHaveBeenCalledTimes(1);
    // The browser's own reconnection (Last-Event-ID): the hub replays what was missed.
    FakeSource.last.emit('ready', { head: 9 });
    expect(inboxSync).toHaveBeenCalledTimes(1);
    live.stop();
  });
});
