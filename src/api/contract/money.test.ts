import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { usdToMicros } from './money';

/**
 * The seventh decimal is the first the micro-dollar drops: half of a micro-dollar or more rounds
 * away from zero, less rounds toward it. Floor or truncation would pass every whole-micro price.
 */
describe('usdToMicros rounds half away from zero at the seventh decimal', () => {
  it.each([
    // Written in exponent form by Number#toString (below 1e-6)…
    [0.0000005, 1],
    [0.0000004, 0],
    [0.00000049, 0],
    [0.00000051, 1],
    [0.00000005, 0],
    [0.0000009, 1],
    // …and in plain decimals above it: the digit after the sixth decides.
    [0.0000015, 2],
    [0.0000025, 3],
    [0.0000014, 1],
    [0.0125005, 12_501],
    [0.0125004, 12_500],
    [1.0000005, 1_000_001],
    [1.9999995, 2_000_000],
    [1.9999994, 1_999_999],
    [123.4567895, 123_456_790],
  ])('%s USD is %s micro-USD', (usd, micros) => {
    expect(usdToMicros(usd)).toBe(micros);
  });

  it.each([
    [-0.0000005, -1],
    [-0.0000015, -2],
    [-1.9999995, -2_000_000],
    [-0.0125004, -12_500],
  ])('a negative amount rounds away from zero too: %s USD is %s micro-USD', (usd, micros) => {
    expect(usdToMicros(usd)).toBe(micros);
  });

  it('rounds a negative amount under half a micro-dollar to zero, not to -0', () => {
    expect(Object.is(usdToMicros(-0.0000004), 0)).toBe(true);
    expect(Object.is(usdToMicros(-0.00000005), 0)).toBe(true);
  });
});

describe('usdToMicros is exact for every amount of whole micro-dollars', () => {
  // Below 1e9 USD (past it, neighbouring micro-dollars share a double: its digits decide).
  it('reads m / 1e6 USD back as m micro-USD', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(1e15 - 1), max: 1e15 - 1 }), (micros) => {
        expect(usdToMicros(micros / 1_000_000)).toBe(micros + 0);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads an amount past 1e9 USD from its digits, where two micro-dollars share one double', () => {
    // 8,793,812,106.739142 and .739141 USD are the same double; its shortest text ends in 1.
    expect(8793812106739142 / 1_000_000).toBe(8793812106739141 / 1_000_000);
    expect(usdToMicros(8793812106739142 / 1_000_000)).toBe(8793812106739141);
  });

  it('rounds any other amount to the nearest micro-dollar (half away from zero)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (usd) => {
        const micros = usdToMicros(usd);
        expect(Number.isSafeInteger(micros)).toBe(true);
        // The amount's own digits decide: a double's error stays far below half a micro-dollar here.
        expect(Math.abs(micros - usd * 1_000_000)).toBeLessThanOrEqual(0.5 + Math.abs(usd) * 1e-9);
      }),
      { numRuns: 20_000 },
    );
  });
});
