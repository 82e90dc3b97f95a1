/*
 * Reviewers' figures from their votes, pure: per member and UTC day (and `all`), items voted, the
 * share adopted, agreement with the team's decision, and the pace. Pace is measured between one
 * item's first vote and the next's: a gap over BREAK_MS is a break, not work, and is left out.
 * Items per hour and seconds per item are the same measure both ways (the time worked over the
 * items): a median of the gaps read 0.2 s per item beside 87 an hour after a burst of bulk votes.
 */

const BREAK_MS = 10 * 60_000;

export interface VoteFact {
  member_id: string;
  key: string;
  vote: 'adopt' | 'dispute';
  /** When the member first voted on the item (a change of vote is not a new item). */
  first_at: number;
}

export interface Figures {
  member_id: string;
  day: string;
  items: number;
  adopts: number;
  acceptance: number | null;
  items_per_hour: number | null;
  seconds_per_item: number | null;
  agreement_with_team: number | null;
  decided: number;
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

function figuresOf(member_id: string, day: string, votes: VoteFact[], team: ReadonlyMap<string, 'adopt' | 'dispute'>): Figures {
  const sorted = [...votes].sort((a, b) => a.first_at - b.first_at);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]!.first_at - sorted[i - 1]!.first_at;
    if (gap <= BREAK_MS) gaps.push(gap);
  }
  const worked = gaps.reduce((s, g) => s + g, 0);
  const adopts = votes.filter((v) => v.vote === 'adopt').length;
  const decided = votes.filter((v) => team.has(v.key));
  const agreeing = decided.filter((v) => team.get(v.key) === v.vote).length;
  return {
    member_id,
    day,
    items: votes.length,
    adopts,
    acceptance: votes.length === 0 ? null : adopts / votes.length,
    items_per_hour: worked > 0 ? gaps.length / (worked / 3_600_000) : null,
    seconds_per_item: worked > 0 ? worked / gaps.length / 1000 : null,
    agreement_with_team: decided.length === 0 ? null : agreeing / decided.length,
    decided: decided.length,
  };
}

/** Rows per member: their whole range (`all`) first, then each day, newest first. */
export function reviewerFigures(votes: readonly VoteFact[], team: ReadonlyMap<string, 'adopt' | 'dispute'>): Figures[] {
  const byMember = new Map<string, VoteFact[]>();
  for (const v of votes) byMember.set(v.member_id, [...(byMember.get(v.member_id) ?? []), v]);
  const rows: Figures[] = [];
  for (const [member, mine] of [...byMember].sort((a, b) => a[0].localeCompare(b[0]))) {
    rows.push(figuresOf(member, 'all', mine, team));
    const byDay = new Map<string, VoteFact[]>();
    for (const v of mine) byDay.set(dayOf(v.first_at), [...(byDay.get(dayOf(v.first_at)) ?? []), v]);
    for (const [day, list] of [...byDay].sort((a, b) => b[0].localeCompare(a[0]))) rows.push(figuresOf(member, day, list, team));
  }
  return rows;
}
