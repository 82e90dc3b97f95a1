import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorPanel } from '../components/ui/error-panel';
import { Skeleton } from '../components/ui/panel';

/** Router-level pending, error and not-found states. */
export function RoutePending() {
  return (
    <div role="status" aria-label="Loading" className="flex flex-col gap-3">
      <Skeleton className="h-7 w-64" />
      <Skeleton className="h-4 w-96" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <ErrorPanel
      error={error}
      onRetry={() => {
        reset();
        void router.invalidate();
      }}
    />
  );
}

export function RouteNotFound() {
  return (
    <div className="flex flex-col items-start gap-2">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">There is nothing at this address.</p>
      <Link to="/frontiers" search={{}} className="text-brand-600 underline dark:text-brand-100">
        Go to frontiers
      </Link>
    </div>
  );
}
