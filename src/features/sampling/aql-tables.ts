/**
 * The single sampling plans of MIL-STD-105E (10 May 1989, "Sampling procedures and tables for
 * inspection by attributes", US Department of Defense; public domain): Table I (sample size code
 * letters) and Tables II-A, II-B and II-C (master tables for normal, tightened and reduced
 * inspection). ANSI/ASQ Z1.4 reproduces these tables; ISO 2859-1 (1999 and later) uses the same
 * Table I, the same normal and tightened tables, and differs here:
 * - Reduced inspection (ISO Table 2-C) has no gap between Ac and Re (e.g. J at AQL 1.0: 105E 1/3,
 *   ISO 1/2), so a reduced lot is either accepted or not; 105E accepts a lot whose count falls in
 *   the gap but returns to normal inspection (switching.ts follows 105E here).
 * - ISO's tightened table has no code letter S (3,150 items, Ac 1 at AQL 0.025), which 105E adds
 *   below R.
 * - The switch to reduced inspection uses the switching score (ISO 9.3.3), not 105E's limit
 *   numbers (Table VIII); switching.ts implements the switching score.
 *
 * The master tables are written as the printed tables read, one row per code letter, one cell per
 * AQL column: a number is the acceptance number Ac (Re = Ac + 1 on normal and tightened), "Ac/Re"
 * on reduced; "v" is the standard's arrow down (use the first sampling plan below it, and its
 * sample size), "^" the arrow up (the first plan above it). AQLs above 10 are in nonconformities
 * per 100 items; an item of a delivery is either conforming or not, so the console offers 0.010–10.
 */

import { AQLS, LEVELS } from '../../api/contract/hub-lots';

/** The AQL columns and inspection levels live in the contract: a lot's plan names them, and the team hub checks it. */
export { AQLS, LEVELS };
export type Aql = (typeof AQLS)[number];
/** The AQLs offered for percent nonconforming (an item is good or defective). */
export const PERCENT_AQLS = AQLS.slice(0, AQLS.indexOf('10') + 1) as readonly Aql[];

export type InspectionLevel = (typeof LEVELS)[number];
export type Severity = 'normal' | 'tightened' | 'reduced';

export const CODE_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'Q', 'R'] as const;
type CodeLetter = (typeof CODE_LETTERS)[number] | 'S';

/** Sample sizes of Tables II-A and II-B (S: Table II-B only). */
const SAMPLE_SIZE: Record<CodeLetter, number> = {
  A: 2,
  B: 3,
  C: 5,
  D: 8,
  E: 13,
  F: 20,
  G: 32,
  H: 50,
  J: 80,
  K: 125,
  L: 200,
  M: 315,
  N: 500,
  P: 800,
  Q: 1250,
  R: 2000,
  S: 3150,
};
/** Sample sizes of Table II-C (reduced inspection). */
const REDUCED_SAMPLE_SIZE: Record<(typeof CODE_LETTERS)[number], number> = {
  A: 2,
  B: 2,
  C: 2,
  D: 3,
  E: 5,
  F: 8,
  G: 13,
  H: 20,
  J: 32,
  K: 50,
  L: 80,
  M: 125,
  N: 200,
  P: 315,
  Q: 500,
  R: 800,
};

/** Table I: the upper bound of each lot-size range, and the code letter per level (S-1 S-2 S-3 S-4 I II III). */
const TABLE_I: readonly [maxLot: number, letters: string][] = [
  [8, 'A A A A A A B'],
  [15, 'A A A A A B C'],
  [25, 'A A B B B C D'],
  [50, 'A B B C C D E'],
  [90, 'B B C C C E F'],
  [150, 'B B C D D F G'],
  [280, 'B C D E E G H'],
  [500, 'B C D E F H J'],
  [1_200, 'C C E F G J K'],
  [3_200, 'C D E G H K L'],
  [10_000, 'C D F G J L M'],
  [35_000, 'C D F H K M N'],
  [150_000, 'D E G J L N P'],
  [500_000, 'D E G J M P Q'],
  [Infinity, 'D E H K N Q R'],
];

/** Table II-A, normal inspection (Ac; Re = Ac + 1). Columns: AQLS. */
// prettier-ignore
const NORMAL: Record<string, string> = {
  A: 'v v v v v v v v v v v v v v 0 v v 1 2 3 5 7 10 14 21 30',
  B: 'v v v v v v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 30 44',
  C: 'v v v v v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 30 44 ^',
  D: 'v v v v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 30 44 ^ ^',
  E: 'v v v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 30 44 ^ ^ ^',
  F: 'v v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^',
  G: 'v v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^',
  H: 'v v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^',
  J: 'v v v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^',
  K: 'v v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  L: 'v v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  M: 'v v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  N: 'v v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  P: 'v 0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  Q: '0 ^ v 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  R: '^ ^ 1 2 3 5 7 10 14 21 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',};

/** Table II-B, tightened inspection (Ac; Re = Ac + 1). Row S (3,150) has one plan, at AQL 0.025. */
// prettier-ignore
const TIGHTENED: Record<string, string> = {
  A: 'v v v v v v v v v v v v v v v 0 v v 1 2 3 5 8 12 18 27',
  B: 'v v v v v v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 27 41',
  C: 'v v v v v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 27 41 ^',
  D: 'v v v v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 27 41 ^ ^',
  E: 'v v v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 27 41 ^ ^ ^',
  F: 'v v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^',
  G: 'v v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^',
  H: 'v v v v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^',
  J: 'v v v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^',
  K: 'v v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  L: 'v v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  M: 'v v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  N: 'v v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  P: 'v v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  Q: 'v 0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  R: '0 ^ v 1 2 3 5 8 12 18 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',  S: '^ ^ 1 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
};

/** Table II-C, reduced inspection (Ac/Re; "0" is 0/1). Sample sizes: REDUCED_SAMPLE_SIZE. */
// prettier-ignore
const REDUCED: Record<string, string> = {
  A: 'v v v v v v v v v v v v v v 0 v v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 14/17',
  B: 'v v v v v v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 14/17 21/24',
  C: 'v v v v v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 14/17 21/24 ^',
  D: 'v v v v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 14/17 21/24 ^ ^',
  E: 'v v v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 14/17 21/24 ^ ^ ^',
  F: 'v v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^',
  G: 'v v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^',
  H: 'v v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^',
  J: 'v v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^',
  K: 'v v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  L: 'v v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  M: 'v v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  N: 'v v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  P: 'v 0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  Q: '0 ^ v 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',
  R: '^ ^ 0/2 1/3 1/4 2/5 3/6 5/8 7/10 10/13 ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^',};

type Cell = { ac: number; re: number } | 'v' | '^';

function parseTable(table: Record<string, string>): Map<string, Cell[]> {
  const rows = new Map<string, Cell[]>();
  for (const [letter, text] of Object.entries(table)) {
    const cells = text.split(' ').map((token): Cell => {
      if (token === 'v' || token === '^') return token;
      const [ac, re] = token.split('/').map(Number) as [number, number | undefined];
      return { ac, re: re ?? ac + 1 };
    });
    if (cells.length !== AQLS.length) throw new Error(`Table row ${letter} has ${cells.length} cells.`);
    rows.set(letter, cells);
  }
  return rows;
}

// The standard's tables, parsed on first use and never changed after. house: computed once
let parsed: Record<Severity, { rows: Map<string, Cell[]>; order: readonly string[] }> | null = null;
function tables() {
  // Parsed on first use: nothing is built at import time.
  parsed ??= {
    normal: { rows: parseTable(NORMAL), order: CODE_LETTERS },
    tightened: { rows: parseTable(TIGHTENED), order: [...CODE_LETTERS, 'S'] },
    reduced: { rows: parseTable(REDUCED), order: CODE_LETTERS },
  };
  return parsed;
}

/** Table I: the code letter of a lot size at an inspection level. */
export function codeLetter(lotSize: number, level: InspectionLevel): (typeof CODE_LETTERS)[number] {
  if (!Number.isInteger(lotSize) || lotSize < 2) throw new RangeError('Table I starts at lots of 2 items.');
  const column = LEVELS.indexOf(level);
  const row = TABLE_I.find(([max]) => lotSize <= max)!;
  return row[1].split(' ')[column] as (typeof CODE_LETTERS)[number];
}

export interface StandardPlanCell {
  severity: Severity;
  aql: Aql;
  /** The lot's code letter (Table I). */
  codeLetter: (typeof CODE_LETTERS)[number];
  /** The letter whose plan applies after following the arrows (the same letter when the cell holds a plan). */
  planLetter: CodeLetter;
  /** 'v' or '^' when an arrow was followed. */
  arrow: 'v' | '^' | null;
  sampleSize: number;
  ac: number;
  re: number;
}

/** One cell of a master table, following its arrows to the first plan below or above. */
export function masterPlan(letter: (typeof CODE_LETTERS)[number], aql: Aql, severity: Severity): StandardPlanCell {
  const { rows, order } = tables()[severity];
  const column = AQLS.indexOf(aql);
  if (column < 0) throw new RangeError(`No AQL column ${aql}.`);
  const first = rows.get(letter)![column]!;
  let index = order.indexOf(letter);
  let cell = first;
  const arrow = first === 'v' || first === '^' ? first : null;
  while (cell === 'v' || cell === '^') {
    index += arrow === 'v' ? 1 : -1;
    const next = order[index];
    if (next === undefined) throw new Error(`The arrow of ${letter} at AQL ${aql} (${severity}) leads off the table.`);
    cell = rows.get(next)![column]!;
  }
  const planLetter = order[index] as CodeLetter;
  const sampleSize = severity === 'reduced' ? REDUCED_SAMPLE_SIZE[planLetter as (typeof CODE_LETTERS)[number]] : SAMPLE_SIZE[planLetter];
  return { severity, aql, codeLetter: letter, planLetter, arrow, sampleSize, ac: cell.ac, re: cell.re };
}

/** The plan for a lot: Table I, then the master table of the severity, arrows followed. */
export function standardPlanFor(lotSize: number, level: InspectionLevel, aql: Aql, severity: Severity): StandardPlanCell {
  return masterPlan(codeLetter(lotSize, level), aql, severity);
}

/** The AQL one step tighter (the column to the left), for the switching score; null at the first column. */
export function tighterAql(aql: Aql): Aql | null {
  const index = AQLS.indexOf(aql);
  return index > 0 ? AQLS[index - 1]! : null;
}
