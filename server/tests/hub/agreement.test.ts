import { describe, expect, it } from 'vitest';
import { agreementOf, cohenKappa, fleissKappa, percentAgreement } from '../../hub/overlap/agreement';
import { teamOutcome } from '../../hub/overlap/rule';

/* Agreement against textbook examples, and the team's rule. Pure: no hub. */

describe('agreement', () => {
  it("Cohen's kappa: the 50 grant proposals (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no) give 0.4", () => {
    const pairs = [
      ...Array<[string, string]>(20).fill(['yes', 'yes']),
      ...Array<[string, string]>(5).fill(['yes', 'no']),
      ...Array<[string, string]>(10).fill(['no', 'yes']),
      ...Array<[string, string]>(15).fill(['no', 'no']),
    ];
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 10);
    // Perfect agreement is 1; agreement no better than chance is 0.
    expect(
      cohenKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1);
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'b'],
      ]),
    ).toBeCloseTo(0, 10);
    expect(cohenKappa([['a', 'a']])).toBeNull();
  });

  it("Fleiss' kappa: Fleiss (1971)'s 10 subjects by 14 raters in 5 categories give 0.210", () => {
    const rows = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(rows)).toBeCloseTo(0.21, 3);
    expect(
      fleissKappa([
        [2, 0],
        [1, 1, 1],
      ]),
    ).toBeNull();
  });

  it('percent agreement counts agreeing pairs; agreementOf picks Cohen for two raters, Fleiss for more', () => {
    const item = (...votes: [string, string][]) => votes.map(([rater, category]) => ({ rater, category }));
    const two = [item(['a', 'adopt'], ['b', 'adopt']), item(['a', 'adopt'], ['b', 'dispute']), item(['a', 'dispute'], ['b', 'dispute']), item(['a', 'x'])];
    expect(percentAgreement(two)).toBeCloseTo(2 / 3, 10);
    expect(agreementOf(two, ['adopt', 'dispute'])).toEqual({ items: 3, raters: 2, percent: 2 / 3, kappa: expect.closeTo(0.4, 10), method: 'cohen' });
    const three = [item(['a', 'adopt'], ['b', 'adopt']), item(['b', 'dispute'], ['c', 'dispute']), item(['a', 'adopt'], ['c', 'dispute'])];
    const figures = agreementOf(three, ['adopt', 'dispute']);
    expect(figures).toMatchObject({ items: 3, raters: 3, method: 'fleiss', percent: 2 / 3 });
    // p_adopt = p_dispute = 1/2 → Pe = 1/2; P̄ = (1 + 1 + 0) / 3 → κ = (2/3 − 1/2) / (1/2) = 1/3.
    expect(figures.kappa).toBeCloseTo(1 / 3, 10);
    expect(agreementOf([], ['adopt'])).toEqual({ items: 0, raters: 0, percent: null, kappa: null, method: null });
  });
});

describe("the team's rule", () => {
  it('waits for N votes; unanimous sends any split to the lead; majority decides over half, a tie goes to the lead', () => {
    expect(teamOutcome(['adopt'], 2, 'unanimous')).toBeNull();
    expect(teamOutcome(['adopt', 'adopt'], 2, 'unanimous')).toBe('adopt');
    expect(teamOutcome(['dispute', 'dispute'], 2, 'majority')).toBe('dispute');
    expect(teamOutcome(['adopt', 'dispute'], 2, 'unanimous')).toBe('lead');
    expect(teamOutcome(['adopt', 'dispute'], 2, 'majority')).toBe('lead');
    expect(teamOutcome(['adopt', 'dispute', 'adopt'], 3, 'majority')).toBe('adopt');
    expect(teamOutcome(['adopt', 'dispute', 'adopt'], 3, 'unanimous')).toBe('lead');
    expect(teamOutcome(['dispute'], 1, 'unanimous')).toBe('dispute');
  });
});
