import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from '../../lib/cx';

export function Panel({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cx('rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900', className)} {...props} />;
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold [overflow-wrap:anywhere] text-slate-900 dark:text-slate-50">{title}</h1>
        {description && <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

const TONES = {
  neutral: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  good: 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200',
  bad: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  warn: 'bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100',
  info: 'bg-brand-100 text-brand-700 dark:bg-brand-700/40 dark:text-brand-100',
} as const;

export function Badge({ tone = 'neutral', children }: { tone?: keyof typeof TONES; children: ReactNode }) {
  return <span className={cx('inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium', TONES[tone])}>{children}</span>;
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cx('animate-pulse rounded bg-slate-200 dark:bg-slate-700', className)} />;
}
