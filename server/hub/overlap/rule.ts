/*
 * The team's decision from its reviewers' votes (issue 26): nothing until N votes are in; then
 * unanimous takes the one decision all gave, majority the one more than half gave; anything else
 * (a split, a tie) is the lead's to settle.
 */

export type Vote = 'adopt' | 'dispute';
export type Rule = 'unanimous' | 'majority';
export type Outcome = Vote | 'lead' | null;

export function teamOutcome(votes: readonly Vote[], needed: number, rule: Rule): Outcome {
  if (votes.length < needed) return null;
  const adopts = votes.filter((v) => v === 'adopt').length;
  const disputes = votes.length - adopts;
  if (rule === 'unanimous') return disputes === 0 ? 'adopt' : adopts === 0 ? 'dispute' : 'lead';
  if (adopts * 2 > votes.length) return 'adopt';
  if (disputes * 2 > votes.length) return 'dispute';
  return 'lead';
}
