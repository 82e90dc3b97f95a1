/**
 * The sample-size plan of a zero-acceptance sampling plan ("c = 0"): how many items to review so
 * that a lot whose defect rate is at least the tolerated one shows at least one defect in the
 * sample with the chosen confidence. Confidence is a whole percent and the tolerated rate is in
 * basis points (1/100 of a percent), so the assumed number of defects is an exact integer and a
 * rate such as 7 % of 100 items is 7 defects, not ceil(7.000000000000001) = 8.
 */
export interface PlanInput {
  /** N: the items in the lot. */
  lotSize: number;
  /** C in whole percent, e.g. 95. */
  confidencePct: number;
  /** p in basis points, e.g. 500 for 5 %. */
  defectRateBp: number;
}

export interface SamplePlan extends PlanInput {
  /** n: the items to review (the finite lot's hypergeometric answer; n ≤ N). */
  sampleSize: number;
  /** D = ceil(p·N): the fewest defects a lot at the tolerated rate holds. */
  assumedDefects: number;
  /** The large-lot limit ceil(ln(1−C)/ln(1−p)), for comparison. */
  binomialSize: number;
  /** The chance that such a lot shows no defect in a sample of n (≤ 1 − C). */
  missChance: number;
  /** The plan and its formula in words. */
  formula: string;
}

/** p·N rounded up, exactly: N·bp/10,000 in integers. */
export function assumedDefects(lotSize: number, defectRateBp: number): number {
  return Math.floor((lotSize * defectRateBp + 9_999) / 10_000);
}

/**
 * P(no defect in a sample of n | N items, D defects) = C(N−D, n) / C(N, n)
 * = ∏_{i<n} (N−D−i)/(N−i), updated one factor per n; returns the smallest n with that ≤ 1 − C.
 */
export function hypergeometricSampleSize(lotSize: number, defects: number, confidencePct: number): { n: number; missChance: number } {
  if (!Number.isInteger(lotSize) || lotSize < 1) throw new RangeError('The lot needs at least one item.');
  if (!Number.isInteger(defects) || defects < 1 || defects > lotSize) throw new RangeError('The assumed defects must be from 1 to the lot size.');
  const allowed = (100 - confidencePct) / 100;
  let miss = 1;
  for (let n = 1; n <= lotSize; n++) {
    miss *= Math.max(0, lotSize - defects - (n - 1)) / (lotSize - (n - 1));
    // A relative tolerance of a few ulps: the running product carries rounding of n factors.
    if (miss <= allowed * (1 + 1e-12)) return { n, missChance: miss };
  }
  return { n: lotSize, missChance: 0 };
}

/** The large-lot (binomial) limit: n = ceil(ln(1−C) / ln(1−p)). */
export function binomialSampleSize(confidencePct: number, defectRateBp: number): number {
  const c = confidencePct / 100;
  const p = defectRateBp / 10_000;
  if (p >= 1) return 1;
  return Math.ceil(Math.log(1 - c) / Math.log(1 - p) - 1e-9);
}

/** "5" or "0.5" (percent, at most two decimals) → basis points; null when it is no rate. */
export function parseRateBp(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp >= 1 && bp <= 9999 ? bp : null;
}

export const percentText = (bp: number) => `${Number((bp / 100).toFixed(2))} %`;

export function samplePlan(input: PlanInput): SamplePlan {
  const { lotSize, confidencePct, defectRateBp } = input;
  if (!Number.isInteger(confidencePct) || confidencePct <= 0 || confidencePct >= 100) throw new RangeError('Confidence must be a whole percent from 1 to 99.');
  if (!Number.isInteger(defectRateBp) || defectRateBp <= 0 || defectRateBp >= 10_000)
    throw new RangeError('The tolerated defect rate must be above 0 % and below 100 %.');
  const defects = assumedDefects(lotSize, defectRateBp);
  const { n, missChance } = hypergeometricSampleSize(lotSize, defects, confidencePct);
  const binomialSize = binomialSampleSize(confidencePct, defectRateBp);
  const formula =
    `Review ${n} of the ${lotSize} items, drawn at random. If at least ${percentText(defectRateBp)} of the lot were defective ` +
    `(D = ⌈p·N⌉ = ${defects} items), a sample of ${n} would show at least one defect with probability ≥ ${confidencePct} %: ` +
    `n is the smallest with C(N−D, n) / C(N, n) ≤ 1 − C (hypergeometric, no defect allowed in the sample). ` +
    `For a very large lot this tends to n = ⌈ln(1−C) / ln(1−p)⌉ = ${binomialSize}.`;
  return { ...input, sampleSize: n, assumedDefects: defects, binomialSize, missChance, formula };
}
