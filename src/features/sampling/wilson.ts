/** z for a two-sided 95 % interval: the 97.5th percentile of the standard normal. */
const Z_95 = 1.959963984540054;

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * The Wilson score interval for x successes in n trials, without continuity correction
 * (Newcombe 1998, method 3): (x + z²/2 ± z·√(x(n−x)/n + z²/4)) / (n + z²). It stays inside [0, 1]
 * and is sensible at x = 0 and x = n, where the Wald interval collapses to a point.
 */
export function wilsonInterval(x: number, n: number, z = Z_95): Interval {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('The interval needs at least one observation.');
  if (!Number.isInteger(x) || x < 0 || x > n) throw new RangeError('Successes must be from 0 to n.');
  const z2 = z * z;
  const centre = x + z2 / 2;
  const spread = z * Math.sqrt((x * (n - x)) / n + z2 / 4);
  const denominator = n + z2;
  // At x = 0 (x = n) the bound is exactly 0 (1); the formula leaves a rounding error there.
  return { lower: x === 0 ? 0 : (centre - spread) / denominator, upper: x === n ? 1 : (centre + spread) / denominator };
}
