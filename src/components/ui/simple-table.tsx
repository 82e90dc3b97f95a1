import { Link, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { cx } from '../../lib/cx';
import { inputClass } from './field';

export interface Header {
  label: string;
  align?: 'right';
}

/** A bordered table with a caption for screen readers, a header row, and an empty state. */
export function SimpleTable({
  caption,
  headers,
  empty,
  isEmpty,
  children,
}: {
  caption: string;
  headers: readonly (string | Header)[];
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            {headers.map((h) => {
              const header = typeof h === 'string' ? { label: h } : h;
              return (
                <th key={header.label} scope="col" className={cx('px-3 py-2 font-semibold', header.align === 'right' && 'text-right')}>
                  {header.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {isEmpty ? (
            <tr>
              <td colSpan={headers.length} className="px-3 py-6 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

/** "Latest N": for lists the service does not page (usage, deliveries). */
export function LatestSelect({ label, value, options, onChange }: { label: string; value: number; options: readonly number[]; onChange: (value: number) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span>Latest</span>
      <select aria-label={label} className={inputClass} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {options.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A breadcrumb trail: links, then the current page's name. */
export function Breadcrumb({ trail, current }: { trail: readonly { label: string; link: LinkProps }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      {trail.map((step) => (
        <span key={step.label}>
          <Link {...step.link} className="text-brand-600 underline dark:text-brand-100">
            {step.label}
          </Link>{' '}
          /{' '}
        </span>
      ))}
      {current}
    </nav>
  );
}
