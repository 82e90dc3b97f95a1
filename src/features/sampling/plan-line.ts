import type { LotPlan } from './lot';
import { percentText } from './plan';

const count = (n: number) => n.toLocaleString('en-US');
const SEVERITY = { normal: 'normal', tightened: 'tightened', reduced: 'reduced' } as const;

/** The plan in one line, as a quality engineer says it. */
export function planLine(plan: LotPlan): string {
  if (plan.kind === 'standard') {
    const arrow = plan.arrow ? ` (arrow ${plan.arrow === 'v' ? 'down' : 'up'} to ${plan.planLetter})` : '';
    const all = plan.sampleSize < plan.tableSampleSize ? ` (the table's ${count(plan.tableSampleSize)} exceeds the lot: every item)` : '';
    return (
      `AQL ${plan.aql}, inspection level ${plan.level}, ${SEVERITY[plan.severity]} inspection, code letter ${plan.codeLetter}${arrow}: ` +
      `sample ${count(plan.sampleSize)} of ${count(plan.lotSize)}${all}, accept ≤ ${plan.ac}, reject ≥ ${plan.re}`
    );
  }
  return `Zero acceptance: sample ${count(plan.sampleSize)} of ${count(plan.lotSize)} at ${plan.confidencePct} % confidence, tolerated ${percentText(plan.defectRateBp)}: accept 0, reject ≥ 1`;
}
