import { outboxHandle, type OutboxHandle } from '../data/outbox';
import type { OutboxComposition } from './outbox';

/**
 * The outbox, created on first use (a page with a connection, or one that decides): its module, the
 * engine and Dexie load then, not with the first page. The app makes one handle at start
 * (src/main.tsx) and hands it down through the router context and `OutboxContext`.
 */
export function lazyOutbox(composition: OutboxComposition): OutboxHandle {
  return outboxHandle(() =>
    import('./outbox').then(({ createOutbox }) => {
      const created = createOutbox(composition);
      created.start();
      return created.outbox;
    }),
  );
}
