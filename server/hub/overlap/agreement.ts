/*
 * Agreement between raters, pure: percent agreement (the share of agreeing pairs of ratings on an
 * item), Cohen's kappa for two raters who rated the same items, Fleiss' kappa for several raters
 * with the same number of ratings per item. Categories are any strings (here adopt and dispute).
 */

/** One item's ratings: the rater and the category they gave. */
export type Ratings = readonly { rater: string; category: string }[];

/** Share of agreeing pairs among all pairs of ratings, over items with two or more; null when there are none. */
export function percentAgreement(items: readonly Ratings[]): number | null {
  let agree = 0;
  let pairs = 0;
  for (const ratings of items) {
    for (let i = 0; i < ratings.length; i++)
      for (let j = i + 1; j < ratings.length; j++) {
        pairs++;
        if (ratings[i]!.category === ratings[j]!.category) agree++;
      }
  }
  return pairs === 0 ? null : agree / pairs;
}

/** Cohen's kappa of two raters' paired ratings; null with no pairs or when chance agreement is total (one category only). */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): number | null {
  if (pairs.length === 0) return null;
  const n = pairs.length;
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let observed = 0;
  for (const [x, y] of pairs) {
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
    if (x === y) observed++;
  }
  const po = observed / n;
  let pe = 0;
  for (const [category, count] of a) pe += (count / n) * ((b.get(category) ?? 0) / n);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

/**
 * Fleiss' kappa: each row counts how many of the item's raters gave each category; every row must
 * have the same total (n raters per item, n ≥ 2). Null when it cannot be computed (no rows, rows of
 * different totals, or chance agreement total).
 */
export function fleissKappa(rows: readonly (readonly number[])[]): number | null {
  if (rows.length === 0) return null;
  const n = rows[0]!.reduce((s, c) => s + c, 0);
  if (n < 2 || rows.some((r) => r.reduce((s, c) => s + c, 0) !== n)) return null;
  const N = rows.length;
  const k = rows[0]!.length;
  const p = Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + (r[j] ?? 0), 0) / (N * n));
  const pBar = rows.reduce((s, r) => s + (r.reduce((t, c) => t + c * c, 0) - n) / (n * (n - 1)), 0) / N;
  const pe = p.reduce((s, x) => s + x * x, 0);
  return pe === 1 ? null : (pBar - pe) / (1 - pe);
}

export interface Agreement {
  items: number;
  raters: number;
  percent: number | null;
  kappa: number | null;
  method: 'cohen' | 'fleiss' | null;
}

/**
 * The fitting figures for a set of items: Cohen's kappa when exactly two raters rated them all,
 * else Fleiss' over the items with the most common number of ratings (Fleiss needs one n).
 */
export function agreementOf(items: readonly Ratings[], categories: readonly string[]): Agreement {
  const rated = items.filter((r) => r.length >= 2);
  const raters = new Set(rated.flatMap((r) => r.map((x) => x.rater)));
  const percent = percentAgreement(rated);
  if (rated.length === 0) return { items: 0, raters: raters.size, percent, kappa: null, method: null };
  if (raters.size === 2 && rated.every((r) => r.length === 2)) {
    const [first] = [...raters].sort();
    const pairs = rated.map((r) => {
      const one = r.find((x) => x.rater === first)!;
      const other = r.find((x) => x !== one)!;
      return [one.category, other.category] as const;
    });
    return { items: rated.length, raters: 2, percent, kappa: cohenKappa(pairs), method: 'cohen' };
  }
  const sizes = new Map<number, number>();
  for (const r of rated) sizes.set(r.length, (sizes.get(r.length) ?? 0) + 1);
  const n = [...sizes].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0]![0];
  const rows = rated.filter((r) => r.length === n).map((r) => categories.map((c) => r.filter((x) => x.category === c).length));
  return { items: rated.length, raters: raters.size, percent, kappa: fleissKappa(rows), method: 'fleiss' };
}

/** One rater against the others on the items they share: percent of agreeing pairs, and Cohen's kappa of (theirs, another's) pairs. */
export function raterAgreement(items: readonly Ratings[], rater: string): Agreement {
  const pairs: [string, string][] = [];
  const others = new Set<string>();
  let shared = 0;
  for (const ratings of items) {
    const mine = ratings.find((r) => r.rater === rater);
    if (!mine || ratings.length < 2) continue;
    shared++;
    for (const other of ratings)
      if (other !== mine) {
        pairs.push([mine.category, other.category]);
        others.add(other.rater);
      }
  }
  const percent = pairs.length === 0 ? null : pairs.filter(([a, b]) => a === b).length / pairs.length;
  return { items: shared, raters: others.size + (shared > 0 ? 1 : 0), percent, kappa: cohenKappa(pairs), method: pairs.length === 0 ? null : 'cohen' };
}
