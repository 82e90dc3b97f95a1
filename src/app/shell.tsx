import { Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { AuthBanner, ConnectionSwitcher, useActiveConnection } from '../features/connections';

// The outbox (decisions waiting to be sent) matters only once there is a connection: it loads then,
// not with the first page of a visitor who has none (the first page's JavaScript budget).
const OutboxStatus = lazy(() => import('../features/outbox').then((m) => ({ default: m.OutboxStatus })));
const OutboxNotices = lazy(() => import('../features/outbox').then((m) => ({ default: m.OutboxNotices })));
const BudgetHeader = lazy(() => import('../features/budgets').then((m) => ({ default: m.BudgetHeader })));

const NAV = [
  { to: '/frontiers', label: 'Frontiers' },
  { to: '/verticals', label: 'Verticals' },
  { to: '/review', label: 'Review' },
  { to: '/items', label: 'Items' },
  { to: '/lots', label: 'Lots' },
  { to: '/stats', label: 'Statistics' },
  { to: '/usage', label: 'Usage' },
  { to: '/budgets', label: 'Budgets' },
  { to: '/dispute-reasons', label: 'Dispute reasons' },
  { to: '/deliveries', label: 'Deliveries' },
  { to: '/reconciliation', label: 'Reconciliation' },
  { to: '/keys', label: 'Keys' },
  { to: '/connection', label: 'Connection' },
] as const;

/** Header with the connection switcher, navigation, the auth banner, then the page. */
export function AppShell() {
  const hasConnection = useActiveConnection() !== null;
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-2">
          <Link to="/frontiers" className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width={24} height={24} />
            Data Delivery Console
          </Link>
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            {hasConnection && (
              <Suspense fallback={null}>
                <OutboxStatus />
                <BudgetHeader />
              </Suspense>
            )}
            <ConnectionSwitcher />
          </div>
        </div>
        {/* One row at any width: on a phone it scrolls sideways within itself, never the page. */}
        <nav aria-label="Main" className="mx-auto max-w-7xl overflow-x-auto px-4">
          <ul className="flex gap-1 whitespace-nowrap">
            {NAV.map((item) => (
              <li key={item.to} className="shrink-0">
                <Link
                  to={item.to}
                  className="inline-block border-b-2 border-transparent px-3 py-2 text-sm text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white"
                  activeProps={{ className: 'border-brand-600! font-semibold text-slate-950! dark:text-white!', 'aria-current': 'page' }}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <AuthBanner />
      {hasConnection && (
        <Suspense fallback={null}>
          <OutboxNotices />
        </Suspense>
      )}
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
