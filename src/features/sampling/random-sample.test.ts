import { describe, expect, it } from 'vitest';
import { cryptoRandom, drawSample, seededRandom, uniformBelow } from './random-sample';

const ids = Array.from({ length: 10 }, (_, i) => `item-${i}`);

describe('a uniform random sample without replacement', () => {
  it('draws n distinct items of the lot, the same ones for the same seed', () => {
    const sample = drawSample(ids, 4, seededRandom(7));
    expect(new Set(sample).size).toBe(4);
    for (const id of sample) expect(ids).toContain(id);
    expect(drawSample(ids, 4, seededRandom(7))).toEqual(sample);
    expect(drawSample(ids, 10, seededRandom(1)).sort()).toEqual([...ids].sort());
    expect(drawSample(ids, 0, seededRandom(1))).toEqual([]);
  });

  it('gives every item the same chance (chi-square over 20,000 draws of 3 of 10)', () => {
    const random = seededRandom(42);
    const hits = new Map<string, number>(ids.map((id) => [id, 0]));
    const draws = 20_000;
    for (let i = 0; i < draws; i++) for (const id of drawSample(ids, 3, random)) hits.set(id, hits.get(id)! + 1);
    const expected = (draws * 3) / ids.length;
    const chi = [...hits.values()].reduce((sum, h) => sum + (h - expected) ** 2 / expected, 0);
    // 9 degrees of freedom: the 99.9th percentile is 27.9.
    expect(chi).toBeLessThan(27.9);
  });

  it('uses the cryptographic generator by default and rejects a biased remainder', () => {
    expect(new Set(drawSample(ids, 5)).size).toBe(5);
    expect(cryptoRandom()()).toBeGreaterThanOrEqual(0);
    // With bound 3, 2^32 % 3 = 1: the value 2^32 − 1 is rejected and the next one used.
    const values = [2 ** 32 - 1, 5];
    expect(uniformBelow(3, () => values.shift()!)).toBe(2);
    expect(() => drawSample(ids, 11)).toThrow(RangeError);
  });
});
