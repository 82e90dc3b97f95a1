import { describe, expect, it } from 'vitest';
import { acceptanceProbability, binomialAcceptance, hypergeometricAcceptance, ocCurve, rateAtAcceptance } from './oc';

describe('binomial acceptance, against sums worked by hand', () => {
  // n = 80, Ac = 2 (lot 1,000, level II, AQL 1.0):
  // p = 1 %: 0.99^80 = 0.447521; + 80·0.01·0.99^79 = 0.361633; + 3160·0.01²·0.99^78 = 0.144288 → 0.953442.
  it('n = 80, Ac = 2 at 1 % → 0.9534', () => expect(binomialAcceptance(80, 2, 0.01)).toBeCloseTo(0.953442, 5));
  // p = 5 %: 0.95^80 = 0.016515; ·(1 + 80·0.05/0.95 + 3160·0.0025/0.9025) = 0.016515·(1 + 4.210526 + 8.753463) → 0.230614.
  it('n = 80, Ac = 2 at 5 % → 0.2306', () => expect(binomialAcceptance(80, 2, 0.05)).toBeCloseTo(0.230614, 4));
  // Ac = 0: Pa = (1 − p)^n; 0.95^59 = exp(59 · ln 0.95) = exp(59 · −0.0512933) = exp(−3.026305) = 0.048495.
  it('zero acceptance: (1 − p)^n', () => expect(binomialAcceptance(59, 0, 0.05)).toBeCloseTo(0.048495, 5));
  it('p = 0 accepts, p = 1 rejects, Ac ≥ n always accepts', () => {
    expect(binomialAcceptance(80, 2, 0)).toBe(1);
    expect(binomialAcceptance(80, 2, 1)).toBe(0);
    expect(binomialAcceptance(5, 5, 0.7)).toBe(1);
  });
  // Near the Poisson limit: P(X ≤ 21 | λ = 20) = 0.6437 (tables of the Poisson sum).
  it('n = 2,000 does not underflow: Pa at 1 % with Ac = 21 (R, AQL 0.65) is near the Poisson 0.6437', () => {
    const pa = binomialAcceptance(2000, 21, 0.01);
    expect(pa).toBeGreaterThan(0.64);
    expect(pa).toBeLessThan(0.65);
  });
});

describe('hypergeometric acceptance (small lots)', () => {
  // N = 10, D = 2, n = 2, Ac = 0: C(8,2)/C(10,2) = 28/45.
  it('N = 10, D = 2, n = 2, Ac = 0 → 28/45', () => expect(hypergeometricAcceptance(10, 2, 2, 0)).toBeCloseTo(28 / 45, 12));
  // N = 20, D = 4, n = 5, Ac = 1: [C(16,5) + 4·C(16,4)] / C(20,5) = (4368 + 7280) / 15504.
  it('N = 20, D = 4, n = 5, Ac = 1 → 11648/15504', () => expect(hypergeometricAcceptance(20, 4, 5, 1)).toBeCloseTo(11648 / 15504, 12));
  it('a plan on a small lot uses it: N = 20, n = 5, Ac = 1 at 20 %', () =>
    expect(acceptanceProbability({ lotSize: 20, sampleSize: 5, ac: 1 }, 0.2)).toBeCloseTo(11648 / 15504, 12));
});

describe('the curve', () => {
  it('falls from 1, marks Pa at the AQL and the RQL at Pa = 10 %', () => {
    const curve = ocCurve({ lotSize: 1000, sampleSize: 80, ac: 2 }, 0.01);
    expect(curve.method).toBe('binomial');
    expect(curve.points[0]).toEqual({ p: 0, pa: 1 });
    for (let i = 1; i < curve.points.length; i++) expect(curve.points[i]!.pa).toBeLessThanOrEqual(curve.points[i - 1]!.pa);
    expect(curve.atAql!.pa).toBeCloseTo(0.953442, 5);
    // Pa(6.52 %) = 0.10 for n = 80, Ac = 2 (the tabulated LTPD of this plan is about 6.5 %).
    expect(curve.rql.p).toBeGreaterThan(0.064);
    expect(curve.rql.p).toBeLessThan(0.066);
    expect(curve.rql.pa).toBeCloseTo(0.1, 6);
  });
  it('small lots: the RQL is a whole number of defective items', () => {
    const rate = rateAtAcceptance({ lotSize: 20, sampleSize: 5, ac: 0 }, 0.1);
    expect(Number.isInteger(rate * 20)).toBe(true);
    expect(acceptanceProbability({ lotSize: 20, sampleSize: 5, ac: 0 }, rate)).toBeLessThanOrEqual(0.1);
    expect(acceptanceProbability({ lotSize: 20, sampleSize: 5, ac: 0 }, rate - 1 / 20)).toBeGreaterThan(0.1);
  });
});
