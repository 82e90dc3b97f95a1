import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense, type ComponentType } from 'react';
import { NamesContext, namesQuery, NO_NAMES, useActiveConnection, useHubMode } from '../data';
import { AuthBanner, ConnectionLifecycleProvider, ConnectionSwitcher } from '../features/connections';
import { MainNav } from './main-nav';
import { useOffline } from './use-offline';

// The outbox (decisions waiting to be sent) matters only once there is a connection: it loads then,
// not with the first page of a visitor who has none (the first page's JavaScript budget).
const OutboxStatus = lazy(() => import('../features/outbox').then((m) => ({ default: m.OutboxStatus })));
const OutboxNotices = lazy(() => import('../features/outbox').then((m) => ({ default: m.OutboxNotices })));
// Only a console served by a team hub shows its member (and watches the session): loaded then.
const MemberMenu = lazy(() => import('../features/hub-session').then((m) => ({ default: m.MemberMenu })));
// Hub mode: whether colleagues' changes arrive live, and the newest one (src/app/live-stream.ts).
const LiveStatus = lazy(() => import('./live-status'));
// Offline (a page the offline app shell opened): its notice loads then, from the precache. A page
// that cannot load it (no worker yet) says it in a line of its own.
const OfflineNotice = lazy<ComponentType<{ why: NonNullable<ReturnType<typeof useOffline>> }>>(() =>
  import('./offline-notice').catch(() => ({ default: () => <p className="px-4 py-2 text-sm">Offline: decisions wait on this device.</p> })),
);
const BudgetHeader = lazy(() => import('../features/budgets').then((m) => ({ default: m.BudgetHeader })));

/** Header with the connection switcher, navigation, the auth banner, then the page. */
export function AppShell() {
  const active = useActiveConnection();
  const hasConnection = active !== null;
  // Through a team hub: the member in the header, and a session that ends sends them to sign in.
  const hub = useHubMode();
  // Offline (no network, or the service does not answer): a notice under the header says so.
  const offline = useOffline();
  // The names the service publishes (tasks, frontiers, verticals), read once for every page that shows items.
  const names = useQuery({ ...namesQuery(active), enabled: hasConnection }).data ?? NO_NAMES;
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        {/* Below 1024 px: the name and the status on one row, the navigation on the next. From 1024 px:
            one row (name, navigation, status), so the page starts high enough for the review's item to fit. */}
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 pt-2 lg:flex-nowrap lg:gap-x-3 lg:py-1">
          <Link to={hasConnection ? '/review' : '/frontiers'} className="flex shrink-0 items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            {/* The name gives way to the navigation where the row is short of room; the logo keeps it as its name. */}
            <span className="lg:max-2xl:sr-only">Data Delivery Console</span>
          </Link>
          {/* Before a member signs in to a hub there is nothing to go to but the sign-in. */}
          {hub && !hub.member ? null : <MainNav />}
          <div className="flex min-w-0 flex-wrap items-center gap-3 max-lg:order-2 lg:w-56 lg:shrink-0 lg:justify-end lg:gap-x-2 lg:gap-y-0.5">
            {hasConnection && (
              <Suspense fallback={null}>
                <OutboxStatus />
                <BudgetHeader />
              </Suspense>
            )}
            {hub ? (
              <Suspense fallback={null}>
                {hub.member && <LiveStatus />}
                <MemberMenu hub={hub} />
              </Suspense>
            ) : (
              <ConnectionSwitcher />
            )}
          </div>
        </div>
      </header>
      {/* Always there, empty while online: a live region mounted with its text is often not announced. */}
      <div role="status" aria-label="Network">
        {offline && (
          <Suspense fallback={null}>
            <OfflineNotice why={offline} />
          </Suspense>
        )}
      </div>
      <AuthBanner />
      {hasConnection && (
        <Suspense fallback={null}>
          <OutboxNotices />
        </Suspense>
      )}
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <NamesContext value={names}>
          <ConnectionLifecycleProvider>
            <Outlet />
          </ConnectionLifecycleProvider>
        </NamesContext>
      </main>
    </div>
  );
}
