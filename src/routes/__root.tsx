import { createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '../app/router-context';
import { AppShell } from '../app/shell';

export const Route = createRootRouteWithContext<RouterContext>()({
  // Read on every load: the lifecycle invalidates the router whenever the active connection changes.
  beforeLoad: ({ context }) => ({ connection: context.connections.active }),
  component: AppShell,
});
