import { describe, expect, it } from 'vitest';
import { AQLS, CODE_LETTERS, codeLetter, LEVELS, masterPlan, standardPlanFor, tighterAql, type Aql, type InspectionLevel, type Severity } from './aql-tables';

const plan = (lot: number, level: InspectionLevel, aql: Aql, severity: Severity = 'normal') => {
  const p = standardPlanFor(lot, level, aql, severity);
  return [p.codeLetter, p.sampleSize, p.ac, p.re];
};

describe('Table I: sample size code letters', () => {
  it.each([
    // lot, S-1, S-2, S-3, S-4, I, II, III
    [2, 'A A A A A A B'],
    [8, 'A A A A A A B'],
    [9, 'A A A A A B C'],
    [50, 'A B B C C D E'],
    [51, 'B B C C C E F'],
    [281, 'B C D E F H J'],
    [1_000, 'C C E F G J K'],
    [1_201, 'C D E G H K L'],
    [10_000, 'C D F G J L M'],
    [10_001, 'C D F H K M N'],
    [150_001, 'D E G J M P Q'],
    [2_000_000, 'D E H K N Q R'],
  ])('a lot of %i', (lot, letters) => {
    expect(LEVELS.map((level) => codeLetter(lot, level)).join(' ')).toBe(letters);
  });
  it('refuses a lot of fewer than 2 items', () => expect(() => codeLetter(1, 'II')).toThrow(RangeError));
});

describe('published worked examples', () => {
  it.each<[string, number, InspectionLevel, Aql, Severity, (string | number)[]]>([
    // The example: lot 1,000 at level II: J, 80, AQL 1.0 → accept ≤ 2, reject ≥ 3.
    ['issue 27', 1_000, 'II', '1.0', 'normal', ['J', 80, 2, 3]],
    // Montgomery, Introduction to Statistical Quality Control, MIL-STD-105E example: N = 2,000, AQL 0.65 %, level II.
    ['Montgomery normal', 2_000, 'II', '0.65', 'normal', ['K', 125, 2, 3]],
    ['Montgomery tightened', 2_000, 'II', '0.65', 'tightened', ['K', 125, 1, 2]],
    ['Montgomery reduced', 2_000, 'II', '0.65', 'reduced', ['K', 50, 1, 3]],
    // Lot 1,000 at level II across the usual AQLs (Z1.4 / 105E Table II-A, row J).
    ['J at 0.65', 1_000, 'II', '0.65', 'normal', ['J', 80, 1, 2]],
    ['J at 1.5', 1_000, 'II', '1.5', 'normal', ['J', 80, 3, 4]],
    ['J at 2.5', 1_000, 'II', '2.5', 'normal', ['J', 80, 5, 6]],
    ['J at 4.0', 1_000, 'II', '4.0', 'normal', ['J', 80, 7, 8]],
    ['J at 6.5', 1_000, 'II', '6.5', 'normal', ['J', 80, 10, 11]],
    ['H (500) at 2.5', 500, 'II', '2.5', 'normal', ['H', 50, 3, 4]],
    ['L (5,000) at 1.0', 5_000, 'II', '1.0', 'normal', ['L', 200, 5, 6]],
    ['L (5,000) at 2.5', 5_000, 'II', '2.5', 'normal', ['L', 200, 10, 11]],
    ['A (8) at 6.5', 8, 'II', '6.5', 'normal', ['A', 2, 0, 1]],
    ['J tightened at 2.5', 1_000, 'II', '2.5', 'tightened', ['J', 80, 3, 4]],
    ['J tightened at 6.5', 1_000, 'II', '6.5', 'tightened', ['J', 80, 8, 9]],
    ['J reduced at 1.0', 1_000, 'II', '1.0', 'reduced', ['J', 32, 1, 3]],
    ['J reduced at 2.5', 1_000, 'II', '2.5', 'reduced', ['J', 32, 2, 5]],
  ])('%s', (_name, lot, level, aql, severity, expected) => expect(plan(lot, level, aql, severity)).toEqual(expected));
});

describe('arrows: the first plan below (v) or above (^), with that plan’s sample size', () => {
  it('a down arrow: lot 100 at level II is F (20); at AQL 0.40 it follows the arrow to G: 32, accept 0', () => {
    expect(masterPlan('F', '0.40', 'normal')).toMatchObject({ codeLetter: 'F', planLetter: 'G', arrow: 'v', sampleSize: 32, ac: 0, re: 1 });
  });
  it('J at AQL 0.25 points up to H (50, 0/1); at 0.40 down to K (125, 1/2)', () => {
    expect(masterPlan('J', '0.25', 'normal')).toMatchObject({ planLetter: 'H', arrow: '^', sampleSize: 50, ac: 0, re: 1 });
    expect(masterPlan('J', '0.40', 'normal')).toMatchObject({ planLetter: 'K', arrow: 'v', sampleSize: 125, ac: 1, re: 2 });
  });
  // Cells cross-checked against an independent ISO 2859-1 implementation (same plans as 105E in these columns).
  it.each<[(typeof CODE_LETTERS)[number], Aql, Severity, string, number, number]>([
    ['M', '6.5', 'normal', 'L', 200, 21],
    ['R', '0.010', 'normal', 'Q', 1250, 0],
    ['R', '0.015', 'normal', 'P', 800, 0],
    ['R', '0.025', 'normal', 'R', 2000, 1],
    ['J', '0.40', 'tightened', 'H', 50, 0],
    ['J', '0.65', 'tightened', 'K', 125, 1],
    ['L', '6.5', 'tightened', 'L', 200, 18],
    ['M', '6.5', 'tightened', 'L', 200, 18],
    ['A', '6.5', 'tightened', 'B', 3, 0],
    ['A', '0.010', 'normal', 'Q', 1250, 0],
  ])('%s at %s (%s) → %s, n = %i, Ac = %i', (letter, aql, severity, planLetter, n, ac) => {
    expect(masterPlan(letter, aql, severity)).toMatchObject({ planLetter, sampleSize: n, ac });
  });
  it('105E’s letter S (3,150) on tightened inspection: R at AQL 0.025 points down to it', () => {
    expect(masterPlan('R', '0.025', 'tightened')).toMatchObject({ planLetter: 'S', sampleSize: 3150, ac: 1, re: 2 });
  });
  it('above AQL 10 (nonconformities per 100 items): A at 1000 is 30/31, B at 1000 is 44/45, F at 100 points up to E (21/22)', () => {
    expect(masterPlan('A', '1000', 'normal')).toMatchObject({ ac: 30, re: 31 });
    expect(masterPlan('B', '1000', 'normal')).toMatchObject({ ac: 44, re: 45 });
    expect(masterPlan('F', '100', 'normal')).toMatchObject({ planLetter: 'E', sampleSize: 13, ac: 21 });
  });
});

describe('every cell of the three master tables', () => {
  it('resolves to a plan; Re = Ac + 1 on normal and tightened, Re > Ac on reduced; tightened never accepts more than normal on the same letter', () => {
    let cells = 0;
    for (const letter of CODE_LETTERS)
      for (const aql of AQLS) {
        const normal = masterPlan(letter, aql, 'normal');
        const tightened = masterPlan(letter, aql, 'tightened');
        const reduced = masterPlan(letter, aql, 'reduced');
        expect(normal.re).toBe(normal.ac + 1);
        expect(tightened.re).toBe(tightened.ac + 1);
        expect(reduced.re).toBeGreaterThan(reduced.ac);
        if (normal.planLetter === tightened.planLetter) expect(tightened.ac).toBeLessThanOrEqual(normal.ac);
        expect(reduced.sampleSize).toBeLessThanOrEqual(normal.sampleSize);
        cells += 3;
      }
    expect(cells).toBe(16 * 26 * 3);
  });
  it('the acceptance number of a letter never falls as the AQL rises, on its own row’s plans', () => {
    for (const severity of ['normal', 'tightened', 'reduced'] as const)
      for (const letter of CODE_LETTERS) {
        const own = AQLS.map((aql) => masterPlan(letter, aql, severity)).filter((p) => p.arrow === null);
        for (let i = 1; i < own.length; i++) expect(own[i]!.ac).toBeGreaterThanOrEqual(own[i - 1]!.ac);
      }
  });
  it('one step tighter is the column to the left', () => {
    expect(tighterAql('1.0')).toBe('0.65');
    expect(tighterAql('0.010')).toBeNull();
  });
});
