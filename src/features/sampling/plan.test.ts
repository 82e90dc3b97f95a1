import { describe, expect, it } from 'vitest';
import { assumedDefects, binomialSampleSize, hypergeometricSampleSize, parseRateBp, percentText, samplePlan } from './plan';

/** C(a, b) exactly. */
function choose(a: number, b: number): bigint {
  if (b < 0 || b > a) return 0n;
  let out = 1n;
  for (let i = 0; i < b; i++) out = (out * BigInt(a - i)) / BigInt(i + 1);
  return out;
}

/** The smallest n with C(N−D, n)/C(N, n) ≤ 1 − C, in exact integers: 100·C(N−D, n) ≤ (100 − C%)·C(N, n). */
function bruteForce(lot: number, defects: number, confidencePct: number): number {
  for (let n = 1; n <= lot; n++) if (100n * choose(lot - defects, n) <= BigInt(100 - confidencePct) * choose(lot, n)) return n;
  return lot;
}

describe('the binomial (large-lot) limit n = ceil(ln(1−C)/ln(1−p))', () => {
  it.each([
    [95, 500, 59],
    [95, 100, 299],
    [90, 1000, 22],
    [99, 100, 459],
    [95, 1000, 29],
  ])('C=%i %%, p=%i bp → %i', (c, p, n) => expect(binomialSampleSize(c, p)).toBe(n));
});

describe('the finite lot (hypergeometric, D = ceil(p·N))', () => {
  it('agrees with an exact brute-force count for every lot size up to 300 at the usual plans', () => {
    for (const [c, p] of [
      [90, 1000],
      [95, 500],
      [95, 100],
      [99, 500],
      [95, 250],
    ] as const) {
      for (let lot = 1; lot <= 300; lot++) {
        const d = assumedDefects(lot, p);
        expect(hypergeometricSampleSize(lot, d, c).n, `N=${lot} C=${c} p=${p}`).toBe(bruteForce(lot, d, c));
      }
    }
  });

  it('matches a value worked by hand: a lot of 100 with 5 defects needs 45 at 95 % (55·54·53·52·51 / 100·99·98·97·96 = 0.046; 44 gives 0.051)', () => {
    const plan = samplePlan({ lotSize: 100, confidencePct: 95, defectRateBp: 500 });
    expect(plan.assumedDefects).toBe(5);
    expect(plan.sampleSize).toBe(45);
    expect(plan.missChance).toBeCloseTo(0.04621, 5);
  });

  it('tends to the binomial value for a large lot and never exceeds it', () => {
    for (const [c, p, n] of [
      [95, 500, 59],
      [95, 100, 299],
      [90, 1000, 22],
    ] as const) {
      const plan = samplePlan({ lotSize: 1_000_000, confidencePct: c, defectRateBp: p });
      expect(plan.binomialSize).toBe(n);
      expect(plan.sampleSize).toBeLessThanOrEqual(n);
      expect(plan.sampleSize).toBeGreaterThanOrEqual(n - 1);
      expect(samplePlan({ lotSize: 200, confidencePct: c, defectRateBp: p }).sampleSize).toBeLessThanOrEqual(n);
    }
  });

  it('counts the assumed defects exactly (7 % of 100 is 7, not 8) and at least one', () => {
    expect(assumedDefects(100, 700)).toBe(7);
    expect(assumedDefects(100, 701)).toBe(8);
    expect(assumedDefects(10, 100)).toBe(1);
    expect(assumedDefects(200, 500)).toBe(10);
  });

  it('never asks for more items than the lot holds, and states the plan in words', () => {
    const plan = samplePlan({ lotSize: 3, confidencePct: 99, defectRateBp: 100 });
    expect(plan.sampleSize).toBe(3);
    const words = samplePlan({ lotSize: 200, confidencePct: 95, defectRateBp: 500 });
    expect(words.formula).toContain(`Review ${words.sampleSize} of the 200 items`);
    expect(words.formula).toContain('D = ⌈p·N⌉ = 10');
    expect(words.formula).toContain('= 59.');
  });

  it('refuses a plan it cannot make', () => {
    expect(() => samplePlan({ lotSize: 0, confidencePct: 95, defectRateBp: 500 })).toThrow(RangeError);
    expect(() => samplePlan({ lotSize: 10, confidencePct: 100, defectRateBp: 500 })).toThrow(RangeError);
    expect(() => samplePlan({ lotSize: 10, confidencePct: 95, defectRateBp: 0 })).toThrow(RangeError);
  });
});

describe('the tolerated rate as typed', () => {
  it('reads a percentage with at most two decimals as exact basis points', () => {
    expect(parseRateBp('5')).toBe(500);
    expect(parseRateBp(' 0.5 ')).toBe(50);
    expect(parseRateBp('7.07')).toBe(707);
    expect(parseRateBp('0.01')).toBe(1);
    expect(percentText(707)).toBe('7.07 %');
    for (const bad of ['0', '0.00', '100', '5.123', '-1', '', 'five', '1e1']) expect(parseRateBp(bad), bad).toBeNull();
  });
});
