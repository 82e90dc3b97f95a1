import { Link, useRouterState } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { useHubMode } from '../data';
import { useDismiss } from '../lib/use-dismiss';
import { cx } from '../lib/cx';

/**
 * The pages in the groups of a working day: reviewing, money, where data comes from, and the
 * settings (which are visited rarely, so they sit behind one button on a wide screen).
 */
const NAV_GROUPS = [
  {
    label: 'Review',
    links: [
      { to: '/review', label: 'Review' },
      { to: '/items', label: 'Items' },
      { to: '/lots', label: 'Lots' },
      { to: '/stats', label: 'Statistics' },
    ],
  },
  {
    label: 'Spend',
    links: [
      { to: '/usage', label: 'Usage' },
      { to: '/budgets', label: 'Budgets' },
      { to: '/deliveries', label: 'Deliveries' },
      { to: '/reconciliation', label: 'Reconciliation' },
    ],
  },
  {
    label: 'Sources',
    links: [
      { to: '/frontiers', label: 'Frontiers' },
      { to: '/verticals', label: 'Verticals' },
    ],
  },
] as const;

const SETTINGS_LINKS = [
  { to: '/connection', label: 'Connection' },
  { to: '/keys', label: 'Keys' },
  { to: '/dispute-reasons', label: 'Dispute reasons' },
  { to: '/team', label: 'Team' },
] as const;

/** Through a team hub, the page that holds for the team: its budgets are the hub's, enforced for everyone. */
const HUB_PAGES: Partial<Record<string, '/team/budgets'>> = { '/budgets': '/team/budgets' };

// Narrower at 1024–1279 px, where the links share one row with the name and the status.
const linkClass =
  'block border-b-2 border-transparent px-2.5 py-2 text-sm text-slate-700 hover:text-slate-950 md:inline-block lg:max-xl:px-1 dark:text-slate-300 dark:hover:text-white';
const activeProps = { className: 'border-brand-600! font-semibold text-slate-950! dark:text-white!', 'aria-current': 'page' as const };

/**
 * The main navigation. Wide: the three groups side by side, each under its small label, and
 * Settings as a disclosure button. Narrow (390 px): one Menu button opening every group as a
 * list, Settings included. One set of links in the DOM either way; any link closes what is open.
 */
export function MainNav() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // Each is open on the page it was opened on: a page change (a link, back, forward) closes both.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const [settingsOpenOn, setSettingsOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const settingsOpen = settingsOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  const setSettingsOpen = (open: boolean) => setSettingsOpenOn(open ? pathname : null);
  const closeAll = () => {
    setMenuOpenOn(null);
    setSettingsOpenOn(null);
  };
  const settingsRef = useRef<HTMLDivElement>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Through a team hub there is no connection to set up and no key to check: the hub holds them.
  const hub = useHubMode();
  // The team's pages exist only there.
  const settingsLinks = SETTINGS_LINKS.filter((l) => (hub ? l.to !== '/connection' && l.to !== '/keys' : l.to !== '/team'));
  const settingsActive = settingsLinks.some((l) => pathname === l.to || pathname.startsWith(`${l.to}/`));

  // Settings closes on Escape (focus back on its button) and on a click or focus outside it.
  useDismiss(settingsOpen, () => setSettingsOpenOn(null), settingsRef, settingsButton);

  return (
    <nav aria-label="Main" className="w-full max-lg:order-3 lg:w-auto lg:min-w-0 lg:flex-1">
      <button
        type="button"
        className="my-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium md:hidden dark:border-slate-600"
        aria-expanded={menuOpen}
        aria-controls={`${id}-groups`}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        {menuOpen ? 'Close menu' : 'Menu'}
      </button>
      <div
        id={`${id}-groups`}
        className={cx(menuOpen ? 'flex' : 'hidden', 'flex-col gap-2 pb-2 md:flex md:flex-row md:items-end md:gap-5 md:pb-0 lg:gap-1 xl:gap-5')}
      >
        {NAV_GROUPS.map((group) => (
          <div key={group.label} role="group" aria-labelledby={`${id}-${group.label}`} className="flex flex-col">
            <span
              id={`${id}-${group.label}`}
              className="px-2.5 pt-1 lg:max-xl:px-1 text-[0.65rem] font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
            >
              {group.label}
            </span>
            <ul className="flex flex-col md:flex-row">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={hub ? (HUB_PAGES[link.to] ?? link.to) : link.to} className={linkClass} activeProps={activeProps} onClick={closeAll}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div ref={settingsRef} role="group" aria-labelledby={`${id}-settings`} className="relative flex flex-col md:ml-auto">
          <span
            id={`${id}-settings`}
            className="px-2.5 pt-1 lg:max-xl:px-1 text-[0.65rem] font-semibold tracking-wide text-slate-500 uppercase md:hidden dark:text-slate-400"
          >
            Settings
          </span>
          <button
            ref={settingsButton}
            type="button"
            className={cx(
              'hidden border-b-2 border-transparent px-2.5 py-2 text-sm whitespace-nowrap lg:max-xl:px-1 text-slate-700 md:inline-block dark:text-slate-300',
              settingsActive && 'border-brand-600 font-semibold text-slate-950 dark:text-white',
            )}
            aria-expanded={settingsOpen}
            aria-controls={`${id}-settings-list`}
            onClick={() => setSettingsOpen(!settingsOpen)}
          >
            Settings <span aria-hidden="true">▾</span>
          </button>
          <ul
            id={`${id}-settings-list`}
            className={cx(
              'flex flex-col',
              settingsOpen
                ? 'md:absolute md:top-full md:right-0 md:z-30 md:min-w-48 md:rounded-md md:border md:border-slate-200 md:bg-white md:py-1 md:shadow-lg dark:md:border-slate-700 dark:md:bg-slate-900'
                : 'md:hidden',
            )}
          >
            {settingsLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={cx(linkClass, 'md:block')} activeProps={activeProps} onClick={closeAll}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </nav>
  );
}
