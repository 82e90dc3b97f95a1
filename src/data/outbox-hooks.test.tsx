import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OutboxContext, outboxHandle, type Outbox } from './outbox';
import { paintedSubscription } from '../lib/after-paint';
import { useOutboxWriteError, type OutboxFollow } from './outbox-hooks';

/** An outbox that holds one snapshot and tells its subscribers when the test changes it (its handle loaded). */
async function fakeOutbox() {
  let snapshot = { writeError: null as string | null };
  const listeners = new Set<() => void>();
  const outbox = {
    subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)),
    getSnapshot: () => snapshot,
  } as unknown as Outbox;
  outbox.subscribeAfterPaint = paintedSubscription(outbox.subscribe);
  const handle = outboxHandle(() => Promise.resolve(outbox));
  await handle.load();
  const set = (writeError: string) => {
    snapshot = { writeError };
    for (const listener of listeners) listener();
  };
  return { handle, set };
}

function WriteError({ follow }: { follow: OutboxFollow }) {
  return <p aria-label={follow}>{useOutboxWriteError(follow) ?? 'none'}</p>;
}

describe('following the outbox', () => {
  it('now: in the render the change causes; after-paint: once a frame has painted, not inside that render', async () => {
    const { handle, set } = await fakeOutbox();
    render(
      <OutboxContext value={handle}>
        <WriteError follow="now" />
        <WriteError follow="after-paint" />
      </OutboxContext>,
    );
    act(() => set('disk full'));
    expect(screen.getByLabelText('now')).toHaveTextContent('disk full');
    expect(screen.getByLabelText('after-paint')).toHaveTextContent('none');
    await waitFor(() => expect(screen.getByLabelText('after-paint')).toHaveTextContent('disk full'));
  });
});
