import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { composeLocalChanges } from './app/local-store';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { connectionStore } from './data';
import './styles.css';

const queryClient = createQueryClient();
const localChanges = composeLocalChanges(queryClient);
const router = createAppRouter({ queryClient, connections: connectionStore, localChanges });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
