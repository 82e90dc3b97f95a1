import type { QueryClient } from '@tanstack/react-query';
import type { HubChangeEvent } from '../api/contract/hub-events';

/**
 * The one place where a change on the team hub's stream maps to what the console reads again.
 * Each kind of refresh is one function (`LiveRefreshers`); the table below says which audit
 * actions call it. Another area's refresh (the shared inbox's sync, the leases) is one new kind
 * and one row here, wired in `startHubLive` (src/app/live-stream.ts).
 */
export type LiveRefresh =
  /** The team's lots and their sampled items' decisions (src/features/sampling). */
  | 'lots'
  /** The member's adopts held on the hub (src/app/team-holds-watcher.ts) and the holds page. */
  | 'holds'
  /** Budgets and what was spent (the team's budgets page). */
  | 'budgets'
  /** The team's settings (dispute reasons). */
  | 'settings'
  /** The team's subscriptions and members (the team pages). */
  | 'team'
  /** The audit log page. */
  | 'audit'
  /** New items in the team's inbox (src/app/team-inbox-sync.ts). */
  | 'inbox'
  /** The team's decisions in this browser's outbox (src/app/team-decisions-sync.ts). */
  | 'decisions'
  /** Leases of the team's queue (the queue page). */
  | 'leases'
  /** Votes, the lead's queue, agreement and reviewers' figures (the overlap pages, Statistics). */
  | 'votes';

export type LiveRefreshers = Partial<Record<LiveRefresh, () => void>>;

/** Which audit actions (src/api/contract/hub-events.ts `action`) refresh what. Every row that matches applies. */
const LIVE_REFRESH: readonly { actions: RegExp; refresh: readonly LiveRefresh[] }[] = [
  // A decision: the lots count the team's decisions on their sampled items; an adopt spends budget.
  // With overlap, a member's adopt or dispute is their vote: agreement and the lead's queue move too.
  { actions: /^(v1\.(adopt|dispute)|decision\.send)$/, refresh: ['lots', 'budgets', 'holds', 'votes'] },
  // A teammate's decision, its send, a hold resolved or a vote: the items it names read decided (or undecided again) here.
  { actions: /^(v1\.(adopt|dispute)|decision\.send|hold\.(release|drop)|vote\.)/, refresh: ['decisions'] },
  { actions: /^lot\./, refresh: ['lots'] },
  { actions: /^hold\./, refresh: ['holds', 'budgets'] },
  { actions: /^budget\./, refresh: ['budgets'] },
  { actions: /^settings\./, refresh: ['settings'] },
  { actions: /^(subscriptions|member|token|vendor_key)\./, refresh: ['team'] },
  // A pull through the hub brings new items into the team's inbox (and the queue's counts, the schedule's last pull).
  { actions: /^(v1\.pull|inbox\.)/, refresh: ['inbox', 'leases'] },
  { actions: /^lease\./, refresh: ['leases'] },
  { actions: /^(vote|overlap|team_decision)\./, refresh: ['votes'] },
  { actions: /./, refresh: ['audit'] },
];

/** The refreshes one change calls for, each once. */
export const refreshesFor = (event: Pick<HubChangeEvent, 'action'>): Set<LiveRefresh> =>
  new Set(LIVE_REFRESH.filter((row) => row.actions.test(event.action)).flatMap((row) => row.refresh));

/** What the app itself knows how to refresh: the hub's queries by their key prefixes (`['hub', …]`). */
export function queryRefreshers(queryClient: QueryClient): LiveRefreshers {
  const hub =
    (...key: string[]) =>
    () =>
      void queryClient.invalidateQueries({ queryKey: ['hub', ...key] });
  return {
    lots: hub('lots'),
    budgets: hub('budgets'),
    holds: hub('holds'),
    settings: hub('settings'),
    audit: hub('audit'),
    leases: hub('leases'),
    votes: hub('overlap'),
    team: () => {
      hub('members')();
      hub('team-subscriptions')();
      hub('tokens')();
      hub('vendor-keys')();
    },
  };
}
