import { describe, expect, it } from 'vitest';
import { lotDecision } from './decision';
import type { LotPlan } from './lot';
import { samplePlan } from './plan';

const zero: LotPlan = { kind: 'zero-acceptance', ...samplePlan({ lotSize: 200, confidencePct: 95, defectRateBp: 500 }) };
const standard = (ac: number, re: number, sampleSize = 80): LotPlan => ({
  kind: 'standard',
  lotSize: 1000,
  level: 'II',
  aql: '1.0',
  severity: 'normal',
  codeLetter: 'J',
  planLetter: 'J',
  arrow: null,
  tableSampleSize: sampleSize,
  sampleSize,
  ac,
  re,
  tighterAc: 1,
  switchingWhy: '',
  resumed: false,
  approvedReduced: false,
});

describe('the zero-acceptance plan’s rule (c = 0)', () => {
  it('one defect rejects the lot at once, and never asks for more sampling (issue 22.3)', () => {
    const outcome = lotDecision(zero, 51, 10, 1);
    expect(outcome).toMatchObject({ decision: 'rejected', recommendation: 'dispute' });
    expect(outcome.rule).toContain('one defect rejects it');
    expect(outcome.applied).toContain('no further review can change that');
  });
  it('a clean sample of the plan’s size accepts the lot', () => {
    expect(lotDecision(zero, 51, 51, 0)).toMatchObject({ decision: 'accepted', recommendation: 'accept' });
  });
  it('a clean sample not fully reviewed is not decided yet', () => {
    expect(lotDecision(zero, 51, 50, 0)).toMatchObject({ decision: 'pending', recommendation: 'review-sample' });
    expect(lotDecision(zero, 51, 0, 0)).toMatchObject({ decision: 'pending' });
  });
  it('items the store lost do not hold the decision back', () => {
    expect(lotDecision(zero, 51, 50, 0, 1)).toMatchObject({ decision: 'accepted' });
  });
});

describe('the standard plan’s rule (Ac, Re)', () => {
  it('n = 80, Ac = 2, Re = 3: 3 defects reject, even before the sample is done', () => {
    expect(lotDecision(standard(2, 3), 80, 40, 3)).toMatchObject({ decision: 'rejected', recommendation: 'dispute' });
    expect(lotDecision(standard(2, 3), 80, 80, 3).applied).toContain('at or above the rejection number 3');
  });
  it('2 defects in all 80 accept; 2 in 79 are not decided yet', () => {
    expect(lotDecision(standard(2, 3), 80, 80, 2)).toMatchObject({ decision: 'accepted', recommendation: 'accept' });
    expect(lotDecision(standard(2, 3), 80, 79, 2)).toMatchObject({ decision: 'pending', recommendation: 'review-sample' });
  });
  it('105E reduced 1/4: 2 or 3 defects accept the lot but return to normal; 4 reject', () => {
    expect(lotDecision(standard(1, 4, 32), 32, 32, 2).decision).toBe('accepted-return');
    expect(lotDecision(standard(1, 4, 32), 32, 32, 3).decision).toBe('accepted-return');
    expect(lotDecision(standard(1, 4, 32), 32, 20, 4).decision).toBe('rejected');
    expect(lotDecision(standard(1, 4, 32), 32, 32, 1).decision).toBe('accepted');
  });
});
