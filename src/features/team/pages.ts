import type { HubRole } from '../../api/contract/hub';

/** The team pages and who may open them (the hub's own rules, docs/hub.md). */
export const TEAM_PAGES = [
  { to: '/team/members', label: 'Members', roles: ['admin'] },
  { to: '/team/vendor-keys', label: 'Vendor keys', roles: ['admin'] },
  { to: '/team/tokens', label: 'Access tokens', roles: ['admin', 'reviewer', 'viewer'] },
  { to: '/team/audit', label: 'Audit', roles: ['admin', 'viewer'] },
  { to: '/team/settings', label: 'Settings', roles: ['admin', 'reviewer', 'viewer'] },
  { to: '/team/budgets', label: 'Budgets', roles: ['admin', 'reviewer', 'viewer'] },
  { to: '/team/holds', label: 'Holds', roles: ['admin', 'reviewer', 'viewer'] },
  { to: '/team/overlap', label: 'Overlap', roles: ['admin', 'viewer'] },
  { to: '/team/reviewers', label: 'Reviewers', roles: ['admin', 'reviewer', 'viewer'] },
  { to: '/team/leases', label: 'Queue', roles: ['admin', 'reviewer', 'viewer'] },
] as const satisfies readonly { to: string; label: string; roles: readonly HubRole[] }[];

/** The first team page a role may open: where /team leads. */
export const homeOf = (role: HubRole) => TEAM_PAGES.find((page) => (page.roles as readonly HubRole[]).includes(role))!.to;
