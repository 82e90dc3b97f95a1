/** A source of uniform 32-bit unsigned integers. */
export type RandomUint32 = () => number;

/** The browser's cryptographic generator, read in blocks. */
export function cryptoRandom(): RandomUint32 {
  const block = new Uint32Array(256);
  let next = block.length;
  return () => {
    if (next === block.length) {
      crypto.getRandomValues(block);
      next = 0;
    }
    return block[next++]!;
  };
}

/** For tests and benchmarks only: a seeded generator (mulberry32), so a sample (or bench:ui's pace) can be reproduced. */
export function seededRandom(seed: number): RandomUint32 {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A uniform integer in [0, bound): rejection sampling, so no value is favoured by the modulo. */
export function uniformBelow(bound: number, random: RandomUint32): number {
  if (!Number.isInteger(bound) || bound < 1 || bound > 2 ** 32) throw new RangeError('bound must be an integer from 1 to 2^32');
  const limit = 2 ** 32 - (2 ** 32 % bound);
  for (;;) {
    const value = random();
    if (value < limit) return value % bound;
  }
}

/**
 * n of the given items drawn uniformly without replacement (a partial Fisher–Yates shuffle):
 * every subset of size n is equally likely, and the draws come out in random order.
 */
export function drawSample<T>(items: readonly T[], n: number, random: RandomUint32 = cryptoRandom()): T[] {
  if (!Number.isInteger(n) || n < 0 || n > items.length) throw new RangeError(`Cannot draw ${n} of ${items.length} items.`);
  const pool = items.slice();
  for (let i = 0; i < n; i++) {
    const j = i + uniformBelow(pool.length - i, random);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}
