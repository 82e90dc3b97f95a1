import { describe, expect, it } from 'vitest';
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
