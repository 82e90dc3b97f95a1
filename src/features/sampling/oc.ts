/**
 * The operating characteristic (OC) of a single sampling plan: the probability Pa that a lot with
 * defect rate p is accepted (at most Ac defects among n sampled). Binomial for large lots; for a
 * small lot (the sample more than a tenth of it) hypergeometric, with D = round(p·N) defective
 * items, because drawing without replacement from a small lot is what actually happens.
 * Terms are summed in logs so n in the thousands neither overflows nor underflows.
 */
export interface OcPlan {
  sampleSize: number;
  ac: number;
  /** N; the curve is hypergeometric when n / N > 0.1. */
  lotSize: number;
}

const isHypergeometric = (plan: OcPlan) => plan.sampleSize / plan.lotSize > 0.1;

const logFactorials: number[] = [0];
function logFactorial(k: number): number {
  for (let i = logFactorials.length; i <= k; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[k]!;
}
const logChoose = (a: number, b: number) => (b < 0 || b > a ? -Infinity : logFactorial(a) - logFactorial(b) - logFactorial(a - b));

/** P(at most ac defects in n | binomial(n, p)). */
export function binomialAcceptance(n: number, ac: number, p: number): number {
  if (ac >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  let sum = 0;
  for (let d = 0; d <= ac; d++) sum += Math.exp(logChoose(n, d) + d * Math.log(p) + (n - d) * Math.log1p(-p));
  return Math.min(1, sum);
}

/** P(at most ac defects among n drawn without replacement from N items of which D are defective). */
export function hypergeometricAcceptance(lotSize: number, defective: number, n: number, ac: number): number {
  const total = logChoose(lotSize, n);
  let sum = 0;
  for (let d = 0; d <= Math.min(ac, n, defective); d++) sum += Math.exp(logChoose(defective, d) + logChoose(lotSize - defective, n - d) - total);
  return Math.min(1, sum);
}

/** Pa at defect rate p under the plan (hypergeometric for a small lot). */
export function acceptanceProbability(plan: OcPlan, p: number): number {
  const n = Math.min(plan.sampleSize, plan.lotSize);
  if (isHypergeometric(plan)) return hypergeometricAcceptance(plan.lotSize, Math.round(p * plan.lotSize), n, plan.ac);
  return binomialAcceptance(n, plan.ac, p);
}

/** The smallest defect rate with Pa ≤ target (Pa falls as p rises): bisection, or the exact defective count of a small lot. */
export function rateAtAcceptance(plan: OcPlan, target: number): number {
  if (isHypergeometric(plan)) {
    let lo = 0;
    let hi = plan.lotSize;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (acceptanceProbability(plan, mid / plan.lotSize) <= target) hi = mid;
      else lo = mid + 1;
    }
    return lo / plan.lotSize;
  }
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (acceptanceProbability(plan, mid) <= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

interface OcPoint {
  /** The lot's defect rate, 0–1. */
  p: number;
  pa: number;
}

export interface OcCurve {
  method: 'binomial' | 'hypergeometric';
  points: OcPoint[];
  /** Pa at the AQL (null for a plan without one): 1 − Pa is the producer's risk. */
  atAql: OcPoint | null;
  /** The rejectable quality level (LTPD) at Pa = 10 %. */
  rql: OcPoint;
}

/** The curve from p = 0 to a little past the RQL, in `steps` equal steps, plus the AQL and RQL points. */
export function ocCurve(plan: OcPlan, aqlRate: number | null, steps = 40): OcCurve {
  const rqlRate = rateAtAcceptance(plan, 0.1);
  const end = Math.min(1, Math.max(rqlRate * 1.6, (aqlRate ?? 0) * 2, 0.01));
  const points: OcPoint[] = [];
  for (let i = 0; i <= steps; i++) {
    const p = (end * i) / steps;
    points.push({ p, pa: acceptanceProbability(plan, p) });
  }
  return {
    method: isHypergeometric(plan) ? 'hypergeometric' : 'binomial',
    points,
    atAql: aqlRate === null ? null : { p: aqlRate, pa: acceptanceProbability(plan, aqlRate) },
    rql: { p: rqlRate, pa: acceptanceProbability(plan, rqlRate) },
  };
}
