import type { ReactNode } from 'react';
import { describeError } from '../../api/errors';
import { Button } from './button';

/** A failure in words, with the raw response under "Details" and an optional Retry. */
export function ErrorPanel({ error, onRetry, children }: { error: unknown; onRetry?: () => void; children?: ReactNode }) {
  const summary = describeError(error);
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="font-semibold">{summary.title}</p>
      <p className="mt-1">{summary.message}</p>
      {summary.details && (
        <details className="mt-2">
          <summary className="cursor-pointer">Details</summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-white/70 p-2 font-mono text-xs dark:bg-black/30">
            {summary.details}
          </pre>
        </details>
      )}
      {(onRetry || children) && (
        <div className="mt-3 flex gap-2">
          {onRetry && (
            <Button variant="secondary" size="sm" onClick={onRetry}>
              Retry
            </Button>
          )}
          {children}
        </div>
      )}
    </div>
  );
}
