import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { composeHubLive, composeHubMode } from './app/hub-mode';
import { composeLocalChanges } from './app/local-store';
import { createQueryClient } from './app/query-client';
import { lazyOutbox } from './app/outbox-handle';
import { registerOfflineShell } from './app/offline-shell';
import { createAppRouter } from './app/router';
import { connectionStore, HubModeContext } from './data';
import { OutboxContext } from './data/outbox';
import './styles.css';

async function start() {
  // Hub or personal mode is known before anything reads the connection (src/app/hub-mode.ts).
  const hub = await composeHubMode(connectionStore);
  const queryClient = createQueryClient();
  const localChanges = composeLocalChanges(queryClient);
  // A signed-in member follows the hub's change stream (loaded only in hub mode).
  // A member's new role makes the connection again: the router (made below) loads the page with it.
  const made: { router?: ReturnType<typeof createAppRouter> } = {};
  const reload = () => void made.router?.invalidate();
  const live = hub?.member ? composeHubLive(hub.origin, queryClient, { store: connectionStore, reload }) : undefined;
  // Created on first use (a page with a connection): the engine and Dexie are not on the first page.
  const outbox = lazyOutbox({ connections: connectionStore, changes: localChanges, live });
  const router = (made.router = createAppRouter({ queryClient, connections: connectionStore, localChanges, outbox, hub }));

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HubModeContext value={hub}>
          <OutboxContext value={outbox}>
            <RouterProvider router={router} />
          </OutboxContext>
        </HubModeContext>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
registerOfflineShell();
