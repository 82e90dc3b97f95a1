import { Link, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A route's own not-found screen: what is missing, and the way out. */
export function NotFoundPanel({ title, children, back }: { title: string; children?: ReactNode; back: { label: string; link: LinkProps } }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-2">
      <h1 className="text-xl font-semibold [overflow-wrap:anywhere]">{title}</h1>
      <div className="text-sm text-slate-600 dark:text-slate-400">{children ?? 'It may have been removed, or the link is wrong.'}</div>
      <Link {...back.link} className="text-brand-600 underline dark:text-brand-100">
        {back.label}
      </Link>
    </div>
  );
}
