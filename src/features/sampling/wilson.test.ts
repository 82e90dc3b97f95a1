import { describe, expect, it } from 'vitest';
import { reviewedToAccept, recommend } from './recommend';
import { wilsonInterval } from './wilson';

describe('the 95 % Wilson score interval (no continuity correction)', () => {
  // Newcombe (1998), Statistics in Medicine 17:857–872, Table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i → %f–%f', (x, n, lower, upper) => {
    const interval = wilsonInterval(x, n);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
  });

  it('is [.., 1] at x = n and refuses impossible counts', () => {
    expect(wilsonInterval(20, 20).upper).toBe(1);
    expect(wilsonInterval(20, 20).lower).toBeCloseTo(1 - 0.1611, 4);
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});

describe('the recommendation', () => {
  it('accepts the rest when the whole interval is at or below the tolerated rate', () => {
    // 0/73: upper = z²/(73 + z²) = 0.0500 (just below 5 %); 0/72 is just above.
    expect(recommend(0, 73, 500).recommendation).toBe('accept');
    expect(recommend(0, 72, 500).recommendation).toBe('review-more');
  });

  it('disputes the rest when the whole interval is above it', () => {
    const outcome = recommend(15, 148, 500);
    expect(outcome.interval!.lower).toBeGreaterThan(0.05);
    expect(outcome.recommendation).toBe('dispute');
    expect(outcome.defectRate).toBeCloseTo(15 / 148, 12);
  });

  it('asks for more when the interval straddles it, or when nothing is reviewed yet', () => {
    expect(recommend(1, 29, 500).recommendation).toBe('review-more');
    expect(recommend(0, 0, 500)).toEqual({ reviewed: 0, defects: 0, defectRate: null, interval: null, recommendation: 'review-more' });
  });

  it('says how many reviewed items would let the lot be accepted if the rest of the sample is clean', () => {
    expect(reviewedToAccept(0, 59, 500, 200)).toBe(73);
    expect(reviewedToAccept(0, 80, 500, 200)).toBe(80);
    expect(reviewedToAccept(1, 59, 500, 200)).toBeGreaterThan(73);
    expect(reviewedToAccept(30, 59, 500, 200)).toBeNull();
  });
});
