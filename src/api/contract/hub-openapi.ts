import { z } from './zod';
import { errorBodySchema } from './errors';
import {
  accessTokensResponse,
  auditExportQuery,
  auditQuery,
  auditResponse,
  meResponse,
  memberResponse,
  membersResponse,
  newMemberBody,
  newTokenBody,
  newTokenResponse,
  newVendorKeyBody,
  removedResponse,
  revokedResponse,
  roleBody,
  rotateVendorKeyBody,
  signInBody,
  signInResponse,
  signOutQuery,
  signOutResponse,
  teamSettingsBody,
  teamSettingsResponse,
  teamSubscriptionsSchema,
  tokensQuery,
  vendorKeyResponse,
  vendorKeysResponse,
} from './hub';
import {
  batchResponse,
  leaseSettingsBody,
  leaseSettingsQuery,
  leaseSettingsResponse,
  leasesQuery,
  leasesResponse,
  heldByOthersQuery,
  heldByOthersResponse,
  queueCountsQuery,
  queueCountsResponse,
  releaseBody,
  releaseResponse,
  renewBody,
  renewResponse,
  revokeResponse,
  takeBatchBody,
} from './hub-leases';
import { budgetsBody, budgetsResponse, holdResponse, holdsListQuery, holdsResponse } from './hub-budgets';
import { hubChangeEvent, hubEventsQuery, hubStreamMark } from './hub-events';
import { oidcStartQuery, signInMethodsResponse, SSO_FAILURES } from './hub-sign-in';
import { inboxQuery, inboxResponse, inboxScheduleBody, inboxSchedulesResponse } from './hub-inbox';
import { teamDecisionsQuery, teamDecisionsResponse } from './hub-decisions';
import { lotResponse, lotsResponse, lotUpdateBody, newLotBody } from './hub-lots';
import { agreementResponse, disagreementsResponse, figuresQuery, figuresResponse, overlapSettingsSchema, settleBody, settleResponse } from './hub-overlap';

/**
 * The team hub's own endpoints (/hub/v1/…) as an OpenAPI 3.1 document, built from the shared zod
 * schemas (hub.ts) like the vendor's (openapi.ts). A second document, docs/hub-openapi.json, not a
 * tagged part of docs/openapi.json: that one describes the vendor's interface, which the simulator
 * serves and real vendors implement; a client generated from it must not grow members and sessions,
 * and the hub is a different server (its own sign-in, cookie and Origin rules). The /v1 paths a hub
 * forwards are the vendor's document's. Written by `npm run openapi`.
 */

type JsonObject = Record<string, unknown>;

const COMPONENTS = {
  SignInBody: signInBody,
  SignInResponse: signInResponse,
  SignOutResponse: signOutResponse,
  MeResponse: meResponse,
  NewMemberBody: newMemberBody,
  RoleBody: roleBody,
  MembersResponse: membersResponse,
  MemberResponse: memberResponse,
  RemovedResponse: removedResponse,
  NewTokenBody: newTokenBody,
  NewTokenResponse: newTokenResponse,
  AccessTokensResponse: accessTokensResponse,
  RevokedResponse: revokedResponse,
  AuditResponse: auditResponse,
  NewVendorKeyBody: newVendorKeyBody,
  RotateVendorKeyBody: rotateVendorKeyBody,
  VendorKeysResponse: vendorKeysResponse,
  VendorKeyResponse: vendorKeyResponse,
  TeamSettingsBody: teamSettingsBody,
  TeamSettings: teamSettingsResponse,
  TeamSubscriptions: teamSubscriptionsSchema,
  BudgetsBody: budgetsBody,
  BudgetsResponse: budgetsResponse,
  HoldsResponse: holdsResponse,
  HoldResponse: holdResponse,
  NewLotBody: newLotBody,
  LotUpdateBody: lotUpdateBody,
  LotResponse: lotResponse,
  LotsResponse: lotsResponse,
  OverlapSettings: overlapSettingsSchema,
  DisagreementsResponse: disagreementsResponse,
  SettleBody: settleBody,
  SettleResponse: settleResponse,
  AgreementResponse: agreementResponse,
  FiguresResponse: figuresResponse,
  HubChangeEvent: hubChangeEvent,
  HubStreamMark: hubStreamMark,
  InboxResponse: inboxResponse,
  InboxSchedulesResponse: inboxSchedulesResponse,
  InboxScheduleBody: inboxScheduleBody,
  TeamDecisionsResponse: teamDecisionsResponse,
  TakeBatchBody: takeBatchBody,
  BatchResponse: batchResponse,
  RenewBody: renewBody,
  RenewResponse: renewResponse,
  ReleaseBody: releaseBody,
  ReleaseResponse: releaseResponse,
  QueueCounts: queueCountsResponse,
  HeldByOthers: heldByOthersResponse,
  LeaseSettingsBody: leaseSettingsBody,
  LeaseSettings: leaseSettingsResponse,
  LeasesResponse: leasesResponse,
  RevokeResponse: revokeResponse,
  SignInMethods: signInMethodsResponse,
  ErrorBody: errorBodySchema,
} satisfies Record<string, z.ZodType>;
type ComponentName = keyof typeof COMPONENTS;

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Who may call: `session` a signed-in member's cookie only; `read` a session or a personal access
 * token; `none` anyone (sign-in). The roles are in the summary.
 */
type Auth = 'none' | 'session' | 'read';

/** The hub's error codes and their statuses (server/hub/errors.ts; a test holds the two equal). */
export type HubErrorList = readonly (readonly [code: string, status: number])[];

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: Tag;
  auth: Auth;
  /** Needs an Origin of the hub (a state change with a cookie). */
  origin?: boolean;
  query?: z.ZodObject;
  body?: ComponentName;
  /** 302/303: a browser's navigation, answered with a redirect (single sign-on). */
  status?: 200 | 201 | 302 | 303;
  /** A component, or a non-JSON answer (the export). */
  response: ComponentName | { content?: Record<string, JsonObject>; headers?: JsonObject };
  errors: HubErrorList;
}

const TAGS = {
  Session:
    'Sign in and out (a `ddh_session` cookie: HttpOnly, SameSite=Strict), with a password or through the team’s OpenID Connect provider (`--oidc-issuer`), and who is asking.',
  Members: 'The team: admins add members, change roles and remove them.',
  Tokens: 'Personal access tokens for scripts (`Authorization: Bearer ddh_pat_…`), shown once.',
  Audit: 'The hash-chained audit log: read, filter, export as CSV or JSON Lines.',
  VendorKeys: 'The vendor keys the hub forwards /v1 with: they go in and never come out.',
  Settings: 'Team settings every member sees: dispute reason codes and lots.',
  Subscriptions: 'The subscriptions the team reviews: the console’s connection in hub mode.',
  Budgets: 'Spending limits the hub enforces before it forwards a charged adopt, and what was spent (integer micro-USD, the hub’s UTC day and month).',
  Lots: 'Sampling lots the team shares: drawn by a reviewer or admin, seen by every member, updated from the revision they were read at.',
  Events: 'The team’s changes as server-sent events: one per audit row the caller may see, resumable with Last-Event-ID on any hub of the team.',
  Inbox: 'The team’s shared inbox: every item delivered through the hub, kept once, numbered per subscription; and the scheduled pulls.',
  Queue:
    'The team queue over the shared inbox: take the next batch of undecided items nobody holds (the items view’s filters), renew it, release it; leases end after the subscription’s idle time; admins see who holds what and take a batch back.',
  Holds: 'Adopts held by a budget: kept on the hub until an admin releases (sends, charged) or someone drops them.',
  Overlap: 'Several reviewers per item: the overlap N and rule per subscription, the lead’s queue of split items, agreement and reviewers’ figures.',
} as const;
type Tag = keyof typeof TAGS;

const FORBIDDEN = ['FORBIDDEN', 403] as const;
const NOT_FOUND = ['NOT_FOUND', 404] as const;
const BAD_BODY = ['INVALID_BODY', 400] as const;
const BAD_QUERY = ['INVALID_PARAMETER', 400] as const;

const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/hub/v1/queue/take',
    operationId: 'takeBatch',
    summary:
      'Lease the next batch of a subscription’s undecided items nobody holds, under the items view’s filters (reviewer, admin); an empty batch when none is left. One member holds at most 200 undecided items of a subscription at once: a take past it gets what is left under it (`hold`), and one with the hand full is 409 LEASE_CAP_REACHED. Audited as lease.take (and lease.expire for leases that ran out)',
    tag: 'Queue',
    auth: 'session',
    origin: true,
    body: 'TakeBatchBody',
    response: 'BatchResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND, ['LEASE_CAP_REACHED', 409]],
  },
  {
    method: 'post',
    path: '/hub/v1/queue/renew',
    operationId: 'renewBatch',
    summary: 'Renew the caller’s batch for another idle time (reviewer, admin): what is still held, and what was lost (taken back, expired)',
    tag: 'Queue',
    auth: 'session',
    origin: true,
    body: 'RenewBody',
    response: 'RenewResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'post',
    path: '/hub/v1/queue/release',
    operationId: 'releaseBatch',
    summary: 'Release the caller’s batch, or some of its items, back to the queue (reviewer, admin); audited as lease.release',
    tag: 'Queue',
    auth: 'session',
    origin: true,
    body: 'ReleaseBody',
    response: 'ReleaseResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/queue/counts',
    operationId: 'queueCounts',
    summary: 'The queue counted under the filters (any member): total, undecided, leased, available, per holder',
    tag: 'Queue',
    auth: 'read',
    query: queueCountsQuery,
    response: 'QueueCounts',
    errors: [BAD_QUERY, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/queue/held',
    operationId: 'heldByOthers',
    summary:
      'The undecided items another member holds under a live lease (reviewer, admin; a token for the subscription): the caller’s decision on them is refused (409 ITEM_LEASED)',
    tag: 'Queue',
    auth: 'read',
    query: heldByOthersQuery,
    response: 'HeldByOthers',
    errors: [BAD_QUERY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/queue/settings',
    operationId: 'getLeaseSettings',
    summary: 'A subscription’s lease idle time (any member)',
    tag: 'Queue',
    auth: 'read',
    query: leaseSettingsQuery,
    response: 'LeaseSettings',
    errors: [BAD_QUERY, NOT_FOUND],
  },
  {
    method: 'put',
    path: '/hub/v1/queue/settings',
    operationId: 'setLeaseSettings',
    summary: 'Set a subscription’s lease idle time (admin); audited as lease.settings',
    tag: 'Queue',
    auth: 'session',
    origin: true,
    body: 'LeaseSettingsBody',
    response: 'LeaseSettings',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/leases',
    operationId: 'listLeases',
    summary: 'Who holds what: the live batches and, in each, the items still undecided, optionally of one subscription (admin, viewer)',
    tag: 'Queue',
    auth: 'read',
    query: leasesQuery,
    response: 'LeasesResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'delete',
    path: '/hub/v1/leases/{id}',
    operationId: 'revokeBatch',
    summary: 'Take a batch back (admin): its items return to the queue at once; audited as lease.revoke',
    tag: 'Queue',
    auth: 'session',
    origin: true,
    response: 'RevokeResponse',
    errors: [FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/overlap',
    operationId: 'getOverlap',
    summary: 'The overlap N (reviewers per item, default 1) and rule (unanimous or majority) of every team subscription (any member)',
    tag: 'Overlap',
    auth: 'read',
    response: 'OverlapSettings',
    errors: [],
  },
  {
    method: 'put',
    path: '/hub/v1/overlap',
    operationId: 'setOverlap',
    summary:
      'Set the overlap and rule of the subscriptions listed (admin); audited as overlap.set. Items the team has not decided are judged under the new setting at once (each audited as vote.recount): votes already in that meet it make the team’s decision, sent once; a split goes to the lead; items decided keep their decision',
    tag: 'Overlap',
    auth: 'session',
    origin: true,
    body: 'OverlapSettings',
    response: 'OverlapSettings',
    errors: [BAD_BODY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/disagreements',
    operationId: 'listDisagreements',
    summary: 'The lead’s queue: items whose votes are in and the rule could not decide, with the item and who voted what (admins and viewers)',
    tag: 'Overlap',
    auth: 'read',
    response: 'DisagreementsResponse',
    errors: [FORBIDDEN],
  },
  {
    method: 'post',
    path: '/hub/v1/disagreements/settle',
    operationId: 'settleDisagreement',
    summary: 'The lead settles an item of their queue (admin): their decision is the team’s, taken as one through /v1 (budgets apply, sent once)',
    tag: 'Overlap',
    auth: 'session',
    origin: true,
    body: 'SettleBody',
    response: 'SettleResponse',
    errors: [BAD_BODY, FORBIDDEN, ['NOT_WITH_THE_LEAD', 409], ['ALREADY_DECIDED', 409], ['BUDGET_HELD', 409], ['NO_VENDOR_KEY', 404]],
  },
  {
    method: 'get',
    path: '/hub/v1/agreement',
    operationId: 'getAgreement',
    summary:
      'Agreement per subscription and per reviewer over items with two or more votes: percent agreement and Cohen’s (two raters) or Fleiss’ kappa (any member)',
    tag: 'Overlap',
    auth: 'read',
    response: 'AgreementResponse',
    errors: [],
  },
  {
    method: 'get',
    path: '/hub/v1/reviewers/figures',
    operationId: 'getReviewerFigures',
    summary:
      'Reviewers’ figures per member and UTC day: items, acceptance, items per hour, seconds per item, agreement with the team (an admin: everyone’s or `member`; others their own)',
    tag: 'Overlap',
    auth: 'read',
    query: figuresQuery,
    response: 'FiguresResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/inbox',
    operationId: 'listInbox',
    summary: 'A subscription’s items delivered through the hub, in seq order after `after` (`next` → `after`) (any member; a token within its subscriptions)',
    tag: 'Inbox',
    auth: 'read',
    query: inboxQuery,
    response: 'InboxResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/inbox/decisions',
    operationId: 'listTeamDecisions',
    summary:
      'The team’s decisions on a subscription’s items: first (no `after`) a snapshot of what stands, paged by `snapshot_from`; then, after the audit seq `next`, each item whose decision or votes changed, as it stands now (any member; a token within its subscriptions)',
    tag: 'Inbox',
    auth: 'read',
    query: teamDecisionsQuery,
    response: 'TeamDecisionsResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/inbox/schedules',
    operationId: 'listInboxSchedules',
    summary: 'Each team subscription’s scheduled pull (null: off) and the team’s last pull (any member)',
    tag: 'Inbox',
    auth: 'read',
    response: 'InboxSchedulesResponse',
    errors: [],
  },
  {
    method: 'put',
    path: '/hub/v1/inbox/schedules/{subscription_id}',
    operationId: 'setInboxSchedule',
    summary: 'Pull a team subscription every N minutes, or never (null) (admin); audited as inbox.schedule',
    tag: 'Inbox',
    auth: 'session',
    origin: true,
    body: 'InboxScheduleBody',
    response: 'InboxSchedulesResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/lots',
    operationId: 'listLots',
    summary: 'The team’s sampling lots, newest first (any member)',
    tag: 'Lots',
    auth: 'read',
    response: 'LotsResponse',
    errors: [],
  },
  {
    method: 'get',
    path: '/hub/v1/lots/{id}',
    operationId: 'getLot',
    summary: 'One lot (any member)',
    tag: 'Lots',
    auth: 'read',
    response: 'LotResponse',
    errors: [NOT_FOUND],
  },
  {
    method: 'post',
    path: '/hub/v1/lots',
    operationId: 'createLot',
    summary: 'Keep a drawn lot (reviewer, admin) on one of the team’s subscriptions; audited as lot.create. The body may be up to 1 MiB',
    tag: 'Lots',
    auth: 'session',
    origin: true,
    body: 'NewLotBody',
    status: 201,
    response: 'LotResponse',
    errors: [BAD_BODY, FORBIDDEN, ['LOT_EXISTS', 409]],
  },
  {
    method: 'put',
    path: '/hub/v1/lots/{id}',
    operationId: 'updateLot',
    summary:
      'Update a lot from the revision it was read at (reviewer, admin): the sample may grow and the action on the rest change; a stale revision is 409 LOT_CHANGED (read again, re-apply). Audited as lot.update',
    tag: 'Lots',
    auth: 'session',
    origin: true,
    body: 'LotUpdateBody',
    response: 'LotResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND, ['LOT_CHANGED', 409]],
  },
  {
    method: 'get',
    path: '/hub/v1/budgets',
    operationId: 'getBudgets',
    summary: 'The limits, and what was spent in the hub’s current day and month (any member)',
    tag: 'Budgets',
    auth: 'read',
    response: 'BudgetsResponse',
    errors: [],
  },
  {
    method: 'put',
    path: '/hub/v1/budgets',
    operationId: 'setBudgets',
    summary: 'Replace every limit (admin); audited as budget.set',
    tag: 'Budgets',
    auth: 'session',
    origin: true,
    body: 'BudgetsBody',
    response: 'BudgetsResponse',
    errors: [BAD_BODY, FORBIDDEN],
  },
  {
    method: 'post',
    path: '/hub/v1/budgets/sync',
    operationId: 'syncReceipts',
    summary:
      'Read the vendor’s usage receipts now (admin): the budgets with spend outside the hub and when it was read; a vendor away is said in receipts.outcome',
    tag: 'Budgets',
    auth: 'session',
    origin: true,
    response: 'BudgetsResponse',
    errors: [FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/holds',
    operationId: 'listHolds',
    summary: 'Held adopts, newest first: a reviewer’s own, everyone’s for admins and viewers (`state=all` with the resolved ones)',
    tag: 'Holds',
    auth: 'read',
    query: holdsListQuery,
    response: 'HoldsResponse',
    errors: [BAD_QUERY],
  },
  {
    method: 'post',
    path: '/hub/v1/holds/{id}/release',
    operationId: 'releaseHold',
    summary: 'Release a hold (admin): the adopt is sent and charged, past the limit by the admin’s decision',
    tag: 'Holds',
    auth: 'session',
    origin: true,
    response: 'HoldResponse',
    errors: [FORBIDDEN, NOT_FOUND, ['HOLD_RESOLVED', 409]],
  },
  {
    method: 'delete',
    path: '/hub/v1/holds/{id}',
    operationId: 'dropHold',
    summary: 'Drop a hold (admin, or the reviewer who made it): never sent, the item free again',
    tag: 'Holds',
    auth: 'session',
    origin: true,
    response: 'HoldResponse',
    errors: [NOT_FOUND, ['HOLD_RESOLVED', 409]],
  },
  {
    method: 'get',
    path: '/hub/v1/subscriptions',
    operationId: 'listTeamSubscriptions',
    summary: 'The subscriptions the team reviews, in the admin’s order (any member)',
    tag: 'Subscriptions',
    auth: 'read',
    response: 'TeamSubscriptions',
    errors: [],
  },
  {
    method: 'put',
    path: '/hub/v1/subscriptions',
    operationId: 'setTeamSubscriptions',
    summary: 'Replace the team’s subscriptions (admin); audited as subscriptions.set',
    tag: 'Subscriptions',
    auth: 'session',
    origin: true,
    body: 'TeamSubscriptions',
    response: 'TeamSubscriptions',
    errors: [BAD_BODY, FORBIDDEN],
  },
  {
    method: 'post',
    path: '/hub/v1/session',
    operationId: 'signIn',
    summary: 'Sign in: a fresh session cookie (any session the request came with ends)',
    tag: 'Session',
    auth: 'none',
    origin: true,
    body: 'SignInBody',
    response: 'SignInResponse',
    errors: [BAD_BODY, ['INVALID_CREDENTIALS', 401], ['TOO_MANY_ATTEMPTS', 429]],
  },
  {
    method: 'delete',
    path: '/hub/v1/session',
    operationId: 'signOut',
    summary: 'Sign out this session, or every session of the member (`all=true`)',
    tag: 'Session',
    auth: 'session',
    origin: true,
    query: signOutQuery,
    response: 'SignOutResponse',
    errors: [BAD_QUERY, BAD_BODY],
  },
  {
    method: 'get',
    path: '/hub/v1/sign-in-methods',
    operationId: 'signInMethods',
    summary: 'What the sign-in page offers: a password, and the single sign-on provider when the hub has one',
    tag: 'Session',
    auth: 'none',
    response: 'SignInMethods',
    errors: [],
  },
  {
    method: 'get',
    path: '/hub/v1/oidc/start',
    operationId: 'startSingleSignOn',
    summary: 'Single sign-on, a browser navigation: a redirect to the provider (code flow, PKCE, state, nonce) with the flow in a sealed cookie',
    tag: 'Session',
    auth: 'none',
    query: oidcStartQuery,
    status: 302,
    response: {
      headers: {
        Location: {
          description: 'The provider’s authorization URL; `/sign-in?sso=unavailable` (303) when the provider does not answer.',
          required: true,
          schema: { type: 'string' },
        },
        'Set-Cookie': { description: '`ddh_oidc_flow`: HttpOnly, SameSite=Lax, Path=/hub/v1/oidc, 10 minutes.', schema: { type: 'string' } },
      },
    },
    errors: [BAD_QUERY, ['NOT_FOUND', 404]],
  },
  {
    method: 'get',
    path: '/hub/v1/oidc/callback',
    operationId: 'finishSingleSignOn',
    summary: `The provider's answer: a fresh session for the active member with the verified email, then the console; otherwise /sign-in?sso= one of ${SSO_FAILURES.join(', ')}`,
    tag: 'Session',
    auth: 'none',
    status: 303,
    response: {
      headers: {
        Location: { description: 'Where the member was going, or `/sign-in?sso=<failure>`.', required: true, schema: { type: 'string' } },
        'Set-Cookie': { description: 'The session cookie when signed in; the flow cookie removed either way.', schema: { type: 'string' } },
      },
    },
    errors: [['NOT_FOUND', 404]],
  },
  {
    method: 'get',
    path: '/hub/v1/me',
    operationId: 'me',
    summary: 'The member asking (and the token’s scope when called with one)',
    tag: 'Session',
    auth: 'read',
    response: 'MeResponse',
    errors: [],
  },
  {
    method: 'get',
    path: '/hub/v1/members',
    operationId: 'listMembers',
    summary: 'Active members (admin)',
    tag: 'Members',
    auth: 'read',
    response: 'MembersResponse',
    errors: [FORBIDDEN],
  },
  {
    method: 'post',
    path: '/hub/v1/members',
    operationId: 'addMember',
    summary: 'Add a member (admin)',
    tag: 'Members',
    auth: 'session',
    origin: true,
    body: 'NewMemberBody',
    status: 201,
    response: 'MemberResponse',
    errors: [BAD_BODY, FORBIDDEN, ['MEMBER_EXISTS', 409]],
  },
  {
    method: 'patch',
    path: '/hub/v1/members/{id}',
    operationId: 'changeRole',
    summary: 'Change a member’s role (admin); the last admin stays admin',
    tag: 'Members',
    auth: 'session',
    origin: true,
    body: 'RoleBody',
    response: 'MemberResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND, ['LAST_ADMIN', 409]],
  },
  {
    method: 'delete',
    path: '/hub/v1/members/{id}',
    operationId: 'removeMember',
    summary: 'Remove a member (admin): their sessions end and tokens are revoked',
    tag: 'Members',
    auth: 'session',
    origin: true,
    response: 'RemovedResponse',
    errors: [FORBIDDEN, NOT_FOUND, ['LAST_ADMIN', 409]],
  },
  {
    method: 'post',
    path: '/hub/v1/tokens',
    operationId: 'createToken',
    summary: 'Create a personal access token: its value is in this answer only',
    tag: 'Tokens',
    auth: 'session',
    origin: true,
    body: 'NewTokenBody',
    status: 201,
    response: 'NewTokenResponse',
    errors: [BAD_BODY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/tokens',
    operationId: 'listTokens',
    summary: 'The member’s tokens (`all=true`: everyone’s, admin), never their value',
    tag: 'Tokens',
    auth: 'read',
    query: tokensQuery,
    response: 'AccessTokensResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'delete',
    path: '/hub/v1/tokens/{id}',
    operationId: 'revokeToken',
    summary: 'Revoke a token (its owner, or an admin)',
    tag: 'Tokens',
    auth: 'session',
    origin: true,
    response: 'RevokedResponse',
    errors: [NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/audit',
    operationId: 'listAudit',
    summary:
      'Audit rows, filtered, oldest first (the chain’s order) or newest first with `order=desc`, paged by seq (`next` → `after` oldest first, `before` newest first) (admin, viewer)',
    tag: 'Audit',
    auth: 'read',
    query: auditQuery,
    response: 'AuditResponse',
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/events',
    operationId: 'streamEvents',
    summary:
      'The team’s change stream (any member or token): `ready` (data `{head}`, id the seq it continues from), then one `change` per audit row the caller may see (id the row’s seq, data HubChangeEvent), `: heartbeat` comments every 15 s; `reset` when more than 1,000 rows were missed (read everything again). Resume with the `Last-Event-ID` header or `?after=`. Reviewers see the team’s work (decisions, pulls, lots, settings, budgets, their own holds), admins and viewers every row; a token only its subscriptions’. 503 TOO_MANY_STREAMS past 500 open streams per hub',
    tag: 'Events',
    auth: 'read',
    query: hubEventsQuery,
    response: {
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-sent events; each `change` event’s data is a HubChangeEvent, `ready`/`reset` a HubStreamMark.' },
        },
      },
    },
    errors: [BAD_QUERY, ['TOO_MANY_STREAMS', 503]],
  },
  {
    method: 'get',
    path: '/hub/v1/audit/export',
    operationId: 'exportAudit',
    summary: 'The filtered audit log as a CSV or JSON Lines download, streamed (admin, viewer)',
    tag: 'Audit',
    auth: 'read',
    query: auditExportQuery,
    response: {
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            description: 'A header row, then one row per audit row; every cell quoted, text a spreadsheet could run led by an apostrophe.',
          },
        },
        'application/jsonl': { schema: { type: 'string', description: 'One audit row (as in AuditResponse.rows) per line.' } },
      },
      headers: {
        'Content-Disposition': { description: '`attachment; filename="hub-audit-<UTC time>.<format>"`', required: true, schema: { type: 'string' } },
      },
    },
    errors: [BAD_QUERY, FORBIDDEN],
  },
  {
    method: 'get',
    path: '/hub/v1/vendor-keys',
    operationId: 'listVendorKeys',
    summary: 'Vendor keys: names, subscriptions, whether a JWT, times; never a key or JWT (admin)',
    tag: 'VendorKeys',
    auth: 'session',
    response: 'VendorKeysResponse',
    errors: [FORBIDDEN],
  },
  {
    method: 'post',
    path: '/hub/v1/vendor-keys',
    operationId: 'addVendorKey',
    summary: 'Hold a vendor key (admin); a subscription is covered by one key only (a key naming it, else the one covering *)',
    tag: 'VendorKeys',
    auth: 'session',
    origin: true,
    body: 'NewVendorKeyBody',
    status: 201,
    response: 'VendorKeyResponse',
    errors: [BAD_BODY, FORBIDDEN, ['VENDOR_KEY_EXISTS', 409], ['VENDOR_KEY_OVERLAP', 409]],
  },
  {
    method: 'put',
    path: '/hub/v1/vendor-keys/{name}',
    operationId: 'rotateVendorKey',
    summary: 'Rotate a vendor key: a new key (and JWT; absent = none) (admin)',
    tag: 'VendorKeys',
    auth: 'session',
    origin: true,
    body: 'RotateVendorKeyBody',
    response: 'VendorKeyResponse',
    errors: [BAD_BODY, FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/hub/v1/vendor-keys/{name}',
    operationId: 'removeVendorKey',
    summary: 'Remove a vendor key (admin)',
    tag: 'VendorKeys',
    auth: 'session',
    origin: true,
    response: 'RemovedResponse',
    errors: [FORBIDDEN, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/hub/v1/settings',
    operationId: 'getSettings',
    summary: 'Team settings: reason codes and lots (any member)',
    tag: 'Settings',
    auth: 'read',
    response: 'TeamSettings',
    errors: [],
  },
  {
    method: 'put',
    path: '/hub/v1/settings',
    operationId: 'putSettings',
    summary: 'Replace the team settings (admin); audited as settings.update',
    tag: 'Settings',
    auth: 'session',
    origin: true,
    body: 'TeamSettingsBody',
    response: 'TeamSettings',
    errors: [BAD_BODY, FORBIDDEN],
  },
];

/** What any hub request can be answered besides its own errors. */
const COMMON: HubErrorList = [
  ['MISDIRECTED_REQUEST', 421],
  ['DATABASE_UNAVAILABLE', 503],
  ['INTERNAL_ERROR', 500],
];
const AUTH_ERRORS: Record<Auth, HubErrorList> = {
  none: [['VENDOR_KEY_NOT_ACCEPTED', 401]],
  session: [
    ['NOT_SIGNED_IN', 401],
    ['VENDOR_KEY_NOT_ACCEPTED', 401],
    ['INVALID_TOKEN', 401],
    ['TOKEN_EXPIRED', 401],
    ['TOKEN_REVOKED', 401],
    ['SESSION_REQUIRED', 403],
  ],
  read: [
    ['NOT_SIGNED_IN', 401],
    ['VENDOR_KEY_NOT_ACCEPTED', 401],
    ['INVALID_TOKEN', 401],
    ['TOKEN_EXPIRED', 401],
    ['TOKEN_REVOKED', 401],
  ],
};
const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  session: [{ session: [] }],
  read: [{ session: [] }, { accessToken: [] }],
};

/** Every (code, status) a hub operation can answer: the test compares them with server/hub/errors.ts. */
export function hubOperationErrors(): HubErrorList {
  return OPERATIONS.flatMap(errorsOf);
}

function errorsOf(operation: Operation): HubErrorList {
  return [
    ...COMMON,
    ...AUTH_ERRORS[operation.auth],
    ...operation.errors,
    ...(operation.origin ? ([['CROSS_ORIGIN_REFUSED', 403]] as const) : []),
    ...(operation.body ? ([['BODY_TOO_LARGE', 413]] as const) : []),
  ];
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  421: 'Misdirected request',
  429: 'Too many attempts',
  500: 'Internal error',
  503: 'Unavailable',
};

function strip(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

const inputSchema = (schema: z.ZodType) => strip(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject);

function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'input', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, strip(schema as JsonObject)]));
}

function parameters(operation: Operation): JsonObject[] {
  const path = [...operation.path.matchAll(/\{([a-z_]+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: `The ${name === 'id' ? 'id' : name}.`,
    schema: { type: 'string', minLength: 1 },
  }));
  const query = Object.entries(operation.query?.shape ?? {}).map(([name, field]) => ({
    name,
    in: 'query',
    required: !(field as z.ZodType).safeParse(undefined).success,
    schema: inputSchema(field as z.ZodType),
  }));
  return [...path, ...query];
}

function errorResponses(operation: Operation): Record<string, JsonObject> {
  const statuses = new Map<number, Set<string>>();
  for (const [code, status] of errorsOf(operation)) statuses.set(status, (statuses.get(status) ?? new Set()).add(code));
  return Object.fromEntries(
    [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? 'Error'}: ${[...codes].join(', ')}`,
          content: {
            'application/json': { schema: { allOf: [ref('ErrorBody'), { type: 'object', properties: { errorCode: { enum: [...codes] } } }] } },
          },
        },
      ]),
  );
}

function operationObject(operation: Operation): JsonObject {
  const list = parameters(operation);
  const success =
    typeof operation.response === 'string'
      ? { description: 'Success', content: { 'application/json': { schema: ref(operation.response) } } }
      : { description: operation.status === 302 || operation.status === 303 ? 'Redirect' : 'Success', ...operation.response };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    security: SECURITY[operation.auth],
    ...(list.length > 0 ? { parameters: list } : {}),
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(operation.body) } } } } : {}),
    responses: { [String(operation.status ?? 200)]: success, ...errorResponses(operation) },
  };
}

export function buildHubOpenApiDocument(): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of OPERATIONS) paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Data Delivery Team Hub',
      version: '1',
      description: [
        'The team hub’s own endpoints (docs/hub.md), generated from the zod schemas in src/api/contract/hub.ts.',
        'The vendor’s /v1 paths, which the hub forwards for signed-in members, are in docs/openapi.json.',
        'Every failure is the JSON error envelope. A state change made with the session cookie needs an Origin of the hub',
        '(403 CROSS_ORIGIN_REFUSED otherwise); a vendor key or JWT sent to the hub is refused (401 VENDOR_KEY_NOT_ACCEPTED).',
      ].join(' '),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:8788', description: 'A local hub (npm run hub -- --demo).' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'ddh_session', description: 'The session cookie POST /hub/v1/session sets.' },
        accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'ddh_pat_…', description: 'A personal access token (POST /hub/v1/tokens).' },
      },
    },
  };
}

/** The document as docs/hub-openapi.json holds it. */
export const hubOpenApiJson = (): string => `${JSON.stringify(buildHubOpenApiDocument(), null, 2)}\n`;
