import { wilsonInterval, type Interval } from './wilson';

export type Recommendation = 'accept' | 'dispute' | 'review-more';

export const RECOMMENDATION_TEXT: Record<Recommendation, string> = {
  accept: 'Accept the rest',
  dispute: 'Dispute the rest',
  'review-more': 'Review more',
};

export interface SampleOutcome {
  reviewed: number;
  defects: number;
  /** defects / reviewed; null before any item is reviewed. */
  defectRate: number | null;
  /** The 95 % Wilson interval of the defect rate; null before any item is reviewed. */
  interval: Interval | null;
  recommendation: Recommendation;
}

/**
 * The rule: the whole 95 % interval at or below the tolerated rate → accept the rest; the whole
 * interval above it → dispute the rest; an interval that straddles it → review more.
 */
export function recommend(defects: number, reviewed: number, defectRateBp: number): SampleOutcome {
  if (reviewed === 0) return { reviewed, defects, defectRate: null, interval: null, recommendation: 'review-more' };
  const interval = wilsonInterval(defects, reviewed);
  const p = defectRateBp / 10_000;
  const recommendation: Recommendation = interval.upper <= p ? 'accept' : interval.lower > p ? 'dispute' : 'review-more';
  return { reviewed, defects, defectRate: defects / reviewed, interval, recommendation };
}

/**
 * How many reviewed items it would take to accept if every further one were good: the smallest
 * total m ≥ reviewed (and ≤ the lot) whose interval's upper bound with the same defects is ≤ p.
 * Null when even the whole lot would not do (the defects seen are already too many).
 */
export function reviewedToAccept(defects: number, reviewed: number, defectRateBp: number, lotSize: number): number | null {
  const p = defectRateBp / 10_000;
  for (let m = Math.max(reviewed, 1); m <= lotSize; m++) if (wilsonInterval(defects, m).upper <= p) return m;
  return null;
}
