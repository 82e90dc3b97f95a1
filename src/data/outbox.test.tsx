import { startTransition, Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutboxContext, outboxHandle, useOutbox, type Outbox } from './outbox';

function Status() {
  useOutbox();
  // A hook after the outbox: the one React ran as an update when a replayed render skipped `use`.
  const [text] = useState('loaded');
  return <p>{text}</p>;
}

describe('useOutbox', () => {
  // A real root, not `act`: the bug lives in how the scheduler replays a suspended concurrent render.
  const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
  afterEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  });

  it('a component that suspended on the load and is replayed once it resolved renders with no error (React #467 was recovered from)', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    // Resolves within microtasks of the first `load()`: before React's next task, so the render is replayed, not restarted.
    const handle = outboxHandle(() => Promise.resolve({} as Outbox));
    const errors: unknown[] = [];
    const container = document.createElement('div');
    const root = createRoot(container, { onRecoverableError: (error) => errors.push(error), onUncaughtError: (error) => errors.push(error) });
    startTransition(() =>
      root.render(
        <OutboxContext value={handle}>
          <Suspense fallback={<p>loading</p>}>
            <Status />
          </Suspense>
        </OutboxContext>,
      ),
    );
    await vi.waitFor(() => expect(container.textContent).toBe('loaded'));
    expect(errors).toEqual([]);
    root.unmount();
  });

  it('once loaded, a component mounting gets the outbox in its first render', async () => {
    const handle = outboxHandle(() => Promise.resolve({ tab: 'this tab' } as Outbox));
    await handle.load();
    function Reader() {
      return <p>{useOutbox().tab}</p>;
    }
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const container = document.createElement('div');
    const root = createRoot(container);
    flushSync(() =>
      root.render(
        <OutboxContext value={handle}>
          <Suspense fallback={<p>waiting</p>}>
            <Reader />
          </Suspense>
        </OutboxContext>,
      ),
    );
    expect(container.textContent).toBe('this tab');
    root.unmount();
  });
});
