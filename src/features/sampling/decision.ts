import type { LotPlan } from './lot';

/**
 * A lot's decision under its own plan's rule, and the recommendation that follows from it. Both
 * plans are single sampling plans with an acceptance number Ac and a rejection number Re: the
 * standard plan's from the master table, the zero-acceptance plan's Ac = 0, Re = 1. Re defects
 * reject the lot at once (more reviewing cannot undo them); the whole sample reviewed with at
 * most Ac defects accepts it. On 105E's reduced plans Ac + 1 … Re − 1 defects accept the lot but
 * return the subscription to normal inspection ("accepted-return").
 */
export type LotDecision = 'accepted' | 'rejected' | 'accepted-return' | 'pending';
export type Recommendation = 'accept' | 'dispute' | 'review-sample';

export interface DecisionOutcome {
  decision: LotDecision;
  recommendation: Recommendation;
  /** The rule of the plan, in words. */
  rule: string;
  /** How the rule applied to what was found, in words. */
  applied: string;
}

export function planNumbers(plan: LotPlan): { ac: number; re: number } {
  return plan.kind === 'standard' ? { ac: plan.ac, re: plan.re } : { ac: 0, re: 1 };
}

const defectsText = (k: number) => `${k} ${k === 1 ? 'defect' : 'defects'}`;

export function lotDecision(plan: LotPlan, sampleSize: number, reviewed: number, defects: number, missing = 0): DecisionOutcome {
  const { ac, re } = planNumbers(plan);
  const rule =
    plan.kind === 'standard'
      ? `Accept the lot with at most ${ac} ${ac === 1 ? 'defect' : 'defects'} among the ${sampleSize} sampled; reject it with ${re} or more` +
        (re > ac + 1 ? ` (${ac + 1}–${re - 1} accept it but return to normal inspection)` : '') +
        '.'
      : `Zero acceptance (c = 0): accept the lot only if none of the ${sampleSize} sampled is defective; one defect rejects it.`;
  if (defects >= re)
    return {
      decision: 'rejected',
      recommendation: 'dispute',
      rule,
      applied: `${defectsText(defects)} found, at or above the rejection number ${re}: the lot is rejected${reviewed < sampleSize - missing ? ' (no further review can change that)' : ''}.`,
    };
  if (reviewed >= sampleSize - missing && reviewed > 0) {
    if (defects <= ac)
      return {
        decision: 'accepted',
        recommendation: 'accept',
        rule,
        applied: `${defectsText(defects)} in the ${reviewed} reviewed, within the acceptance number ${ac}: the lot is accepted.`,
      };
    return {
      decision: 'accepted-return',
      recommendation: 'accept',
      rule,
      applied: `${defectsText(defects)} in the ${reviewed} reviewed: above Ac ${ac} and below Re ${re}, so the lot is accepted and inspection returns to normal.`,
    };
  }
  return {
    decision: 'pending',
    recommendation: 'review-sample',
    rule,
    applied: `${defectsText(defects)} so far, with ${reviewed} of the ${sampleSize - missing} sampled items reviewed: ${re - defects} more would reject the lot; review the rest of the sample to decide.`,
  };
}

export const RECOMMENDATION_TEXT: Record<Recommendation | 'review-more', string> = {
  accept: 'Accept the rest',
  dispute: 'Dispute the rest',
  'review-sample': 'Review the rest of the sample',
  // Kept by lots of earlier versions (the interval rule); no longer given.
  'review-more': 'Review more',
};

export const DECISION_TEXT: Record<LotDecision, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  'accepted-return': 'Accepted (back to normal inspection)',
  pending: 'Not decided yet',
};
