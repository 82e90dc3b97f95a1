import type { HubChangeEvent } from '../../../src/api/contract/hub-events';
import type { Principal } from '../http/context';

/** An audit row as the stream reads it: the row's public columns and the actor's email. */
export interface StreamRow {
  seq: number;
  at: number;
  action: string;
  subscription_id: string | null;
  item_id: string | null;
  target: string | null;
  actor_id: string | null;
  actor_email: string | null;
  outcome: string;
  /** Only to tell whose hold a hold.* row is; never sent. */
  details: string | null;
}

/**
 * The team's work: what every member sees on the stream (a reviewer reads decisions, pulls, lots,
 * settings and budgets through the API already). Everything else (members, tokens, sessions,
 * vendor keys, the hub secret) is what only the audit log's readers, admins and viewers, may see.
 */
const TEAM_WORK =
  /^(v1\.(pull|adopt|dispute)|decision\.send|lot\.(create|update)|settings\.update|subscriptions\.set|budget\.set|hold\.(release|drop)|lease\.|inbox\.|vote\.|overlap\.|team_decision\.)/;

/** The member a hold row concerns (details.member), to show a reviewer their own holds only, as GET /holds does. */
function holdMember(row: StreamRow): string | null {
  try {
    const details = row.details === null ? null : (JSON.parse(row.details) as { member?: unknown });
    return typeof details?.member === 'string' ? details.member : null;
  } catch {
    return null;
  }
}

/** Whether this principal may see this row: the audit log's own rule for admins and viewers, the team's work for reviewers, and a token's subscriptions. */
export function visibleTo(principal: Principal, row: StreamRow): boolean {
  const token = principal.token;
  if (token) {
    const covered = JSON.parse(token.subscriptions) as string[];
    if (!covered.includes('*') && row.subscription_id !== null && !covered.includes(row.subscription_id)) return false;
  }
  const role = principal.member.role;
  if (role === 'admin' || role === 'viewer') return true;
  // A change to this member's own role: their console reads it again (what they may do follows at once).
  if (row.action === 'member.role' && row.target === principal.member.email) return true;
  if (!TEAM_WORK.test(row.action)) return false;
  if (row.action.startsWith('hold.')) return holdMember(row) === principal.member.id;
  return true;
}

/** The event's data: a summary of the row, never its details (paths, reasons, amounts) or anything secret. */
export const changeEvent = (row: StreamRow): HubChangeEvent => ({
  seq: row.seq,
  at: new Date(row.at).toISOString(),
  action: row.action,
  subscription_id: row.subscription_id,
  item_id: row.item_id,
  target: row.action.startsWith('lot.') ? row.target : null,
  actor: row.actor_id !== null && row.actor_email !== null ? { id: row.actor_id, email: row.actor_email } : null,
  outcome: row.outcome,
});
