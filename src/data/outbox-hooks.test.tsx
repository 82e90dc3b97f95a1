import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from '../domain/outbox/model';
import { OutboxContext, outboxHandle, type Outbox } from './outbox';
import { paintedSubscription } from '../lib/after-paint';
import { useOutboxUnsettledNow, useOutboxWriteError, type OutboxFollow } from './outbox-hooks';

// One connection whose organization's decisions are kept under scope S.
vi.mock('./use-connections', () => ({ useConnection: (id: string | undefined) => (id ? { id, subscriptions: [] } : undefined) }));
vi.mock('./use-local-scope', () => ({ useLocalScope: (connection: unknown) => ({ scope: connection ? 'S' : null, error: null }) }));

/** An outbox that holds one snapshot and tells its subscribers at once when the test sets another (its handle loaded). */
async function fakeOutbox<Snapshot>(first: Snapshot) {
  let snapshot = first;
  const listeners = new Set<() => void>();
  const outbox = {
    subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
    getSnapshot: () => snapshot,
  } as unknown as Outbox;
  outbox.subscribeAfterPaint = paintedSubscription(outbox.subscribe);
  const handle = outboxHandle(() => Promise.resolve(outbox));
  await handle.load();
  const set = (next: Snapshot) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  return { handle, set };
}

function WriteError({ follow }: { follow: OutboxFollow }) {
  return <p aria-label={follow}>{useOutboxWriteError(follow) ?? 'none'}</p>;
}

describe('following the outbox', () => {
  it('now: in the render the change causes; after-paint: once a frame has painted, not inside that render', async () => {
    const { handle, set } = await fakeOutbox({ writeError: null as string | null });
    render(
      <OutboxContext value={handle}>
        <WriteError follow="now" />
        <WriteError follow="after-paint" />
      </OutboxContext>,
    );
    act(() => set({ writeError: 'disk full' }));
    expect(screen.getByLabelText('now')).toHaveTextContent('disk full');
    expect(screen.getByLabelText('after-paint')).toHaveTextContent('none');
    await waitFor(() => expect(screen.getByLabelText('after-paint')).toHaveTextContent('disk full'));
  });
});

const entry = (id: string, state: OutboxEntry['state']): OutboxEntry => ({
  id,
  scope: 'S',
  connectionId: 'c1',
  kind: 'simulated',
  itemId: id,
  subscriptionId: 'sub',
  decision: 'adopt',
  priceMicros: 10_000,
  createdAt: 0,
  sendAfter: 0,
  state,
  attempts: 0,
  nextAttemptAt: 0,
});

describe('whether anything waits, told now', () => {
  it('answers in the render that changed it, and renders again only when the answer changes', async () => {
    const { handle, set: setSnapshot } = await fakeOutbox({ entries: {} as Record<string, readonly OutboxEntry[]> });
    const set = (entries: readonly OutboxEntry[]) => setSnapshot({ entries: { S: entries } });
    let renders = 0;
    function Status() {
      renders++;
      const { unsettled, entriesNow } = useOutboxUnsettledNow('c1');
      return <p aria-label="status">{`${unsettled ? 'waiting' : 'settled'} ${entriesNow().length}`}</p>;
    }
    render(
      <OutboxContext value={handle}>
        <Status />
      </OutboxContext>,
    );
    expect(screen.getByLabelText('status')).toHaveTextContent('settled 0');

    // The first decision: told in the render its change causes, with the entries as they are.
    act(() => set([entry('a', 'grace')]));
    expect(screen.getByLabelText('status')).toHaveTextContent('waiting 1');
    const afterFirst = renders;

    // More decisions while one waits: the answer is the same, so nothing renders again.
    act(() => set([entry('a', 'grace'), entry('b', 'queued')]));
    act(() => set([entry('a', 'sending'), entry('b', 'grace'), entry('c', 'grace')]));
    expect(renders).toBe(afterFirst);

    // Settled: sent ones and a team hub's hold (the hub keeps it) do not wait here.
    act(() => set([entry('a', 'sent'), entry('b', 'held-team'), entry('c', 'accepted-team')]));
    expect(screen.getByLabelText('status')).toHaveTextContent('settled 3');

    // Held by this browser's budget, or failed: it waits here, whichever entry it is.
    act(() => set([entry('a', 'held-budget'), entry('b', 'sent')]));
    expect(screen.getByLabelText('status')).toHaveTextContent('waiting 2');
    act(() => set([entry('a', 'sent'), entry('b', 'sent')]));
    expect(screen.getByLabelText('status')).toHaveTextContent('settled 2');
    act(() => set([entry('a', 'failed'), entry('b', 'sent')]));
    expect(screen.getByLabelText('status')).toHaveTextContent('waiting 2');
  });
});
