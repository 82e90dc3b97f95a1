import { hubVoteStateSchema } from '../../api/contract/hub-overlap';
import type { OutboxEntry } from './model';

/**
 * Through a team hub with overlap (docs/hub.md, "Overlap"), a decision is the member's vote: the
 * hub answers 202 with `hub.state: 'voted'`, how many votes are in of how many, and the team's
 * outcome once there is one. Anything else (the vendor's answer, a personal connection) has none.
 */
export function teamVotesOf(answer: unknown): OutboxEntry['teamVotes'] {
  const hub = (answer as { hub?: unknown } | null | undefined)?.hub;
  const parsed = hubVoteStateSchema.safeParse(hub);
  return parsed.success ? { votes: parsed.data.votes, needed: parsed.data.needed, outcome: parsed.data.outcome } : undefined;
}

/** "1 of 2 votes", and what came of them. */
export function teamVotesText(votes: NonNullable<OutboxEntry['teamVotes']>): string {
  const count = `${votes.votes} of ${votes.needed} votes`;
  if (votes.outcome === null) return `${count}: the team decides when ${votes.needed} are in`;
  if (votes.outcome === 'lead') return `${count}, split: the lead settles it`;
  return `${count}: the team decided ${votes.outcome}`;
}
