import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { HubRole } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Panel } from '../../../components/ui/panel';
import { cx } from '../../../lib/cx';
import { TEAM_PAGES } from '../pages';
import { HoldsBadge } from './holds-page';
import { LeadQueueBadge } from './lead-queue-badge';

/** The team's own navigation: only the pages the member's role may open. */
export function TeamNav({ role }: { role: HubRole }) {
  return (
    <nav aria-label="Team" className="mb-4 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
      <ul className="flex gap-1">
        {TEAM_PAGES.filter((page) => (page.roles as readonly HubRole[]).includes(role)).map((page) => (
          <li key={page.to}>
            <Link
              to={page.to}
              className="block border-b-2 border-transparent px-3 py-2 text-sm whitespace-nowrap text-slate-700 hover:text-slate-950 dark:text-slate-300"
              activeProps={{ className: 'border-brand-600! font-semibold text-slate-950! dark:text-white!', 'aria-current': 'page' }}
            >
              {page.label}
              {page.to === '/team/holds' && role === 'admin' && <HoldsBadge />}
              {page.to === '/team/overlap' && role === 'admin' && <LeadQueueBadge />}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What a member sees on a page their role may not use: what it is and who may. */
export function NotForRole({ page, who }: { page: string; who: string }) {
  return (
    <Panel role="status">
      <h2 className="text-base font-semibold">{page}</h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{who}</p>
    </Panel>
  );
}

/** The console is not served by a team hub (GET /hub/v1/me is not there): the team pages have nothing to show. */
export function NotConnectedToHub() {
  return (
    <Panel role="status" className="mx-auto mt-6 max-w-xl">
      <h1 className="text-lg font-semibold">This console is not connected to a team hub</h1>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Members, vendor keys, access tokens, the audit log and shared settings live on a team hub. Open the console from your team’s hub (started with{' '}
        <code className="font-mono">npm run hub</code>), or keep working here in personal mode with your own key.
      </p>
      <p className="mt-3 text-sm">
        <Link to="/connection" className="text-brand-700 underline dark:text-brand-100">
          Go to the connection page
        </Link>
      </p>
    </Panel>
  );
}

/**
 * A secret shown this once (a member's generated password, a new access token): in a read-only
 * field with a Copy button, and a note that it will not be shown again. Dismiss forgets it.
 */
export function ShownOnce({ label, value, children, onDismiss }: { label: string; value: string; children?: ReactNode; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p className="font-semibold">{label}: shown this once</p>
      {children && <p className="mt-1">{children}</p>}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input aria-label={label} readOnly value={value} className={cx(inputClass, 'min-w-0 flex-1 font-mono')} onFocus={(e) => e.currentTarget.select()} />
        <Button
          size="sm"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Done
        </Button>
      </div>
    </div>
  );
}

/** A random password of 24 URL-safe characters (144 bits), from the browser's CSPRNG. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_');
}

export const selectClass = cx(inputClass, 'w-full');
