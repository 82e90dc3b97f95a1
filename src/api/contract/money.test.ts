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
