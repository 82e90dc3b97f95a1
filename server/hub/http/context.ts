import type { Kysely } from 'kysely';
import type { HostPolicy } from '../../http/hosts';
import type { Engine, HubTables } from '../db/schema';
import type { Broker } from '../live/broker';
import type { Oidc } from '../oidc';
import type { Passwords } from '../passwords';
import type { AccessTokenRow } from '../store/access-tokens';
import type { VendorKeyRow } from '../store/vendor-keys';
import type { MemberRow } from '../store/members';
import type { SessionFound } from '../store/sessions';
import type { ThrottlePolicy } from '../store/throttle';
import type { VendorCipher } from '../vendor-cipher';

/** What every hub router needs: the store and the hub's start-up options. */
export interface HubContext {
  db: Kysely<HubTables>;
  engine: Engine;
  passwords: Passwords;
  /** The origins the hub's own pages are served from: a state change from any other is refused. */
  origins: readonly string[];
  /** Secure on the session cookie (off only with --insecure-cookies, for a LAN over plain http). */
  secureCookies: boolean;
  throttle: ThrottlePolicy;
  log?: (line: string) => void;
  /** Seals and opens the vendor keys the hub holds. */
  cipher: VendorCipher;
  /** The Data Delivery Service /v1 is forwarded to (--upstream, or the --demo simulator). */
  upstream?: string;
  /** The built console served beside the API (`--static DIR`): the hub's pages, same origin as its API. */
  staticDir?: string;
  /** --demo: the simulator's demo images (`/media/scenes/…`, which its items name by relative path) on the hub's origin too. */
  demoMedia?: boolean;
  /** The hub's clock for budget periods (tests move it); Date.now when absent. */
  clock?: () => number;
  /** How the decision queue retries (server/hub/decisions/sender.ts); its defaults when absent. */
  retry?: RetryPolicy;
  /** How long a team pull's claim lasts (server/hub/inbox/team-pull.ts); PULL_CLAIM_MS when absent. */
  pullClaimMs?: number;
  /** The most undecided items of a subscription one member may hold (server/hub/store/leases.ts); MEMBER_HOLD_CAP when absent (benchmarks raise it). */
  memberHoldCap?: number;
  /** The Host values answered (421 otherwise); absent only when the app is used without a server. */
  hostPolicy?: HostPolicy;
  /** The team's change stream in this process (GET /hub/v1/events); woken after every state change. */
  events?: Broker;
  /** Single sign-on through an OpenID Connect provider (--oidc-issuer); password sign-in only when absent. */
  oidc?: Oidc;
}

export interface RetryPolicy {
  /** The first retry's delay; each further one doubles, up to maxMs (with jitter). */
  baseMs: number;
  maxMs: number;
  /** How often the sender looks for due decisions. */
  pollMs: number;
}

/** A simulated item as the hub saw it delivered: its subscription and pull-time price. */
export interface ItemSeen {
  subscription_id: string | null;
  price_micros: number | null;
}

/** What a forwarded request reads whoever asks: the stored vendor keys, and a simulated decision's item as the hub saw it delivered. */
export interface ForwardReads {
  vendorKeys: Promise<VendorKeyRow[]>;
  /** Undefined when the hub never delivered the item; null for a request that decides no simulated item. */
  seen: Promise<ItemSeen | undefined> | null;
  /** The session cookie's lookup (`sessionMember`'s answer), read in the same round trip; absent without a cookie. */
  session?: Promise<SessionFound | undefined>;
}

/** Who is asking, and how: a session cookie or a personal access token. */
export interface Principal {
  member: MemberRow;
  via: 'session' | `pat:${string}`;
  sessionId?: string;
  token?: AccessTokenRow;
}

export interface HubEnv {
  Variables: {
    principal: Principal | null;
    bearer: boolean;
    /** /v1's own reads, started beside the session lookup (routes/forward.ts, `prefetchForward`). */
    forwardReads?: ForwardReads;
  };
}
