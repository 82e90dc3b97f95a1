import { createRouter } from '@tanstack/react-router';
import { RouteError, RouteNotFound, RoutePending } from './route-states';
import { parseSearch, stringifySearch } from '../lib/search-params';
import { routeTree } from '../routeTree.gen';
import type { RouterContext } from './router-context';

/** The router, given what every route may use (router-context.ts). */
export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders call ensureQueryData: React Query owns freshness.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: RoutePending,
    defaultPendingMs: 150,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: RouteNotFound,
    scrollRestoration: true,
    parseSearch,
    stringifySearch,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
