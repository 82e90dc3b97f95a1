/*
 * Team pages (a console served by a team hub): members, vendor keys, access tokens, the audit
 * log and shared settings, on the hub's /hub/v1 endpoints (src/api/contract/hub.ts).
 */
export { AuditPage } from './components/audit-page';
export { BudgetsPage } from './components/budgets-page';
export { HoldsPage } from './components/holds-page';
export { LeasesPage, subscriptionsQuery as leasesSubscriptionsQuery } from './components/leases-page';
export { budgetsQuery, holdsQuery, teamSubscriptionsQuery } from './budget-queries';
export { AgreementPanel } from './components/agreement-panel';
export { MembersPage } from './components/members-page';
export { OverlapPage } from './components/overlap-page';
export { ReviewersPage } from './components/reviewers-page';
export { disagreementsQuery, figuresQuery, overlapSettingsQuery } from './overlap-queries';
export { SettingsPage } from './components/settings-page';
export { NotConnectedToHub, NotForRole, TeamNav } from './components/team-parts';
export { homeOf } from './pages';
export { TokensPage } from './components/tokens-page';
export { VendorKeysPage } from './components/vendor-keys-page';
export { auditQuery, membersQuery, settingsQuery, tokensQuery, vendorKeysQuery } from './queries';
export { auditSearchSchema, auditView } from './search';
