/*
 * The hub's tables as Kysely sees them. Every id is text (no autoincrement: the engines spell it
 * differently), every instant is integer milliseconds since the epoch (bigint columns, read back as
 * numbers on both engines), and no column is boolean (libsql aborts the process on a bound boolean).
 */

// On the wire too: the shared contract holds them (src/api/contract/hub.ts).
export { HUB_ROLES as ROLES, type HubRole as Role, type TokenScope } from '../../../src/api/contract/hub';
import type { HubRole as Role, TokenScope } from '../../../src/api/contract/hub';
import type { Generated, GeneratedAlways } from 'kysely';

export interface MembersTable {
  id: string;
  /** Lower-cased on the way in: one account per address. */
  email: string;
  role: Role;
  /** argon2id PHC string (its parameters travel inside it). */
  password_hash: string;
  created_at: number;
  /** Set when an admin removes the member: their sessions and tokens stop on the next request. */
  removed_at: number | null;
}

interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database holds no usable session. */
  id: string;
  member_id: string;
  created_at: number;
  expires_at: number;
}

interface SigninThrottleTable {
  /** `acct:<email>` or `ip:<address>`. */
  key: string;
  failures: number;
  window_start: number;
  locked_until: number;
}

export interface AccessTokensTable {
  id: string;
  member_id: string;
  name: string;
  /** SHA-256 of the whole `ddh_pat_…` token. */
  token_hash: string;
  last4: string;
  scope: TokenScope;
  /** JSON array of subscription ids, or `["*"]` for every one. */
  subscriptions: string;
  expires_at: number;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface AuditTable {
  seq: number;
  at: number;
  actor_id: string | null;
  /** `session`, `pat:<id>`, `cli` or `system`. */
  via: string;
  action: string;
  target: string | null;
  subscription_id: string | null;
  item_id: string | null;
  amount_micros: number | null;
  reason: string | null;
  outcome: string;
  /** JSON text with sorted keys, stored as hashed. */
  details: string | null;
  prev_hash: string;
  hash: string;
}

/** One row: the last seq and hash. Appenders lock it, so the chain never forks. */
interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
}

export interface VendorKeysTable {
  id: string;
  name: string;
  /** JSON array of subscription ids, or `["*"]` for every one. */
  subscriptions: string;
  /** `v1.<key id>.<iv>.<ciphertext>.<tag>`: never the key itself. */
  key_sealed: string;
  jwt_sealed: string | null;
  created_at: number;
  rotated_at: number | null;
}

/** A simulated item seen in a pull through the hub: the subscription and price an adopt's path lacks. */
interface PulledItemsTable {
  item_id: string;
  subscription_id: string;
  price_micros: number | null;
  pulled_at: number;
}

/** The shared inbox (migration 0008): every item delivered through the hub, kept once. */
interface InboxItemsTable {
  family: 'data' | 'live';
  /** A simulated item's id, or a live item's submission id. */
  item_id: string;
  subscription_id: string;
  /** The subscription's items in the order the hub kept them (see inbox_heads). */
  seq: number;
  /** The item as the vendor delivered it (JSON, redacted). */
  payload: string;
  price_micros: number | null;
  arrived_at: number;
  /** `pull`, `schedule`, `reread`, `pending`, `delivery` or `live`. */
  arrived_how: string;
  /** The member whose request brought it; null for the hub's own (scheduled) pulls. */
  arrived_by: string | null;
  /** The items view's filter fields, computed from the payload (migration 0009: read-only). */
  q_quality: GeneratedAlways<number | null>;
  q_task: GeneratedAlways<string | null>;
  q_source: GeneratedAlways<string | null>;
  q_grade: GeneratedAlways<string | null>;
  q_vertical: GeneratedAlways<string | null>;
  q_topic: GeneratedAlways<string | null>;
  /** Kept by triggers (migration 0013): 1 while the item has a decision neither refused nor dropped. */
  decided: Generated<number>;
  /** Kept by triggers (migration 0013): the live lease's expiry (ms), 0 for none. */
  leased_until: Generated<number>;
  /** The quality in hundredths, clamped to [0, 1] (-1 for none): `inbox_counts`' bucket (migration 0014). */
  q_bucket: GeneratedAlways<number>;
}

/** Each subscription's last inbox seq; a writer locks its row before keeping items. */
interface InboxHeadsTable {
  subscription_id: string;
  seq: number;
}

/** The team's incremental pull of a subscription: its claim, a lost answer to recover, its schedule (migration 0009). */
interface InboxPullsTable {
  subscription_id: string;
  every_minutes: number | null;
  last_pulled_at: number | null;
  claim_id: string | null;
  claimed_until: number | null;
  /** How many items pulls whose answers never arrived may have taken (0: none): the next pull re-reads first (migration 0015). */
  lost: Generated<number>;
  /** The last item of the last live page kept: the vendor's position as far as the hub knows (migration 0015). */
  position_item: string | null;
}

/** A lease on one item of the team queue (migration 0009): who holds it, in which batch, until when. */
export interface LeasesTable {
  family: 'data' | 'live';
  item_id: string;
  subscription_id: string;
  batch_id: string;
  member_id: string;
  /** `active` while held (and `expires_at` is ahead); ended as released, expired or revoked (an admin's take-back). */
  state: 'active' | 'released' | 'expired' | 'revoked';
  taken_at: number;
  renewed_at: number;
  expires_at: number;
  ended_at: number | null;
}

/** How long a subscription's leases last without a renewal. */
interface LeaseSettingsTable {
  subscription_id: string;
  idle_ms: number;
  updated_at: number;
  updated_by: string;
}

/** What the team decided on an item, kept until the vendor has it (server/hub/decisions/). */
export interface DecisionsTable {
  id: string;
  family: 'data' | 'live';
  item_id: string;
  kind: 'adopt' | 'dispute';
  subscription_id: string | null;
  reason: string | null;
  /** The body sent up (a live decision's JSON), null for none. */
  body: string | null;
  /** The price the hub saw at the pull (simulated items). */
  price_micros: number | null;
  /** The vendor's receipt for the adopt, once known: it replaces the pull-time price in spend. */
  receipt_micros: number | null;
  /** 1 for an adopt the vendor charges (simulated), 0 otherwise: only these count as spend. */
  charged: number;
  member_id: string;
  via: string;
  /** held → queued ⇄ sending → sent | refused; held → dropped. */
  state: DecisionState;
  attempts: number;
  next_attempt_at: number;
  /** While `sending`: until when the claim holds (a crashed sender's claim runs out). */
  claimed_until: number | null;
  /** The hub-clock instant its spend entered the ledger (accepted, or released): the day and month it counts in. */
  counted_at: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  response_status: number | null;
  /** The vendor's answer as handed on (JSON text, any echoed credential cut out). */
  response_body: string | null;
  /** `ok`, the vendor's error code, or the last reason a send must be retried. */
  outcome: string | null;
}

type DecisionState = 'held' | 'queued' | 'sending' | 'sent' | 'refused' | 'dropped';

/** An adopt kept on the hub because it would pass a budget: released or dropped by a person. */
export interface HoldsTable {
  id: string;
  decision_id: string;
  /** Which limit it would pass, e.g. `organization.daily`. */
  limit_name: string;
  created_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
  resolution: 'released' | 'dropped' | null;
}

/** One budget: scope `organization` (target ''), `subscription` (its id) or `member` (an id, or * for each member). */
export interface BudgetLimitsTable {
  scope: 'organization' | 'subscription' | 'member';
  target: string;
  daily_micros: number | null;
  monthly_micros: number | null;
}

/** A team setting (hubteam): one JSON document by name (`team`: reason codes and lots). */
interface TeamSettingsTable {
  name: string;
  value: string;
  updated_at: number;
  updated_by: string | null;
}

/** The subscriptions the team reviews (the console's connection in hub mode), in the admin's order. */
interface TeamSubscriptionsTable {
  id: string;
  kind: 'live' | 'simulated';
  label: string | null;
  position: number;
}

/** A vendor usage receipt (4.7) the hub has read, once by id; amounts integer micro-USD, instants ms. */
export interface VendorReceiptsTable {
  receipt_id: string;
  subscription_id: string | null;
  kind: string;
  item_id: string | null;
  amount_micros: number;
  /** The vendor's instant: the UTC day and month the receipt counts in. */
  created_at: number;
  seen_at: number;
  /** `hub`: a decision or pull of the hub's own; `outside`: another key, a script. */
  source: 'hub' | 'outside';
  decision_id: string | null;
}

/** When the vendor's receipts were last read (`usage`), and how the last attempt went. */
export interface VendorSyncTable {
  name: string;
  synced_at: number | null;
  attempted_at: number;
  outcome: string;
}

/** A sampling lot shared by the team (hublots): `value` is the contract's lot value as JSON. */
interface LotsTable {
  id: string;
  subscription_id: string;
  value: string;
  revision: number;
  created_at: number;
  created_by: string;
  updated_at: number;
  updated_by: string;
}

/** A member's adopt or dispute on an item (migration 0009): their vote, one per member and item. */
export interface VotesTable {
  family: 'data' | 'live';
  item_id: string;
  member_id: string;
  subscription_id: string | null;
  vote: 'adopt' | 'dispute';
  reason: string | null;
  /** The live decision's body as the member sent it (the team's decision reuses it). */
  body: string | null;
  price_micros: number | null;
  /** When last cast (a change moves it); first_at: when first cast. */
  at: number;
  first_at: number;
}

/** Where an item under overlap stands: votes coming, decided by the rule, with the lead, settled by the lead. */
export interface VoteItemsTable {
  family: 'data' | 'live';
  item_id: string;
  subscription_id: string | null;
  /** The overlap N and the rule it is judged under: the setting at its first vote, and any change of it until the team decides (decisions/recount.ts). */
  needed: number;
  rule: 'unanimous' | 'majority';
  state: 'open' | 'decided' | 'lead' | 'settled';
  /** The team's decision once there is one. */
  outcome: 'adopt' | 'dispute' | null;
  updated_at: number;
  settled_by: string | null;
}

/** Per team subscription: how many reviewers vote on an item, and how their votes make the team's decision. */
export interface OverlapSettingsTable {
  subscription_id: string;
  overlap: number;
  rule: 'unanimous' | 'majority';
  updated_at: number;
  updated_by: string | null;
}

/**
 * The shared inbox counted ahead (migration 0014, kept by triggers on inbox_items): items and
 * decided items per subscription, list filters' fields ('' for none) and quality bucket.
 */
interface InboxCountsTable {
  subscription_id: string;
  q_task: string;
  q_source: string;
  q_grade: string;
  q_vertical: string;
  q_topic: string;
  q_bucket: number;
  total: number;
  decided: number;
}

export interface HubTables {
  vendor_receipts: VendorReceiptsTable;
  vendor_sync: VendorSyncTable;
  lots: LotsTable;
  decisions: DecisionsTable;
  holds: HoldsTable;
  budget_limits: BudgetLimitsTable;
  team_settings: TeamSettingsTable;
  team_subscriptions: TeamSubscriptionsTable;
  vendor_keys: VendorKeysTable;
  pulled_items: PulledItemsTable;
  inbox_items: InboxItemsTable;
  inbox_counts: InboxCountsTable;
  inbox_heads: InboxHeadsTable;
  votes: VotesTable;
  vote_items: VoteItemsTable;
  overlap_settings: OverlapSettingsTable;
  inbox_pulls: InboxPullsTable;
  leases: LeasesTable;
  lease_settings: LeaseSettingsTable;
  members: MembersTable;
  sessions: SessionsTable;
  signin_throttle: SigninThrottleTable;
  access_tokens: AccessTokensTable;
  audit: AuditTable;
  audit_head: AuditHeadTable;
}

export type Engine = 'sqlite' | 'postgres';
