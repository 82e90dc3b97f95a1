import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicros, formatUsd, sumMicros, usdToMicros } from './money';

describe('money', () => {
  it('sums 10,000 fractional prices exactly in integer micro-USD', () => {
    const prices = Array.from({ length: 10_000 }, (_, i) => [0.0125, 0.0037, 0.1, 0.0001][i % 4]!);
    const total = sumMicros(prices.map(usdToMicros));
    expect(total).toBe(2_500 * (12_500 + 3_700 + 100_000 + 100));
    expect(formatMicros(total)).toBe('$290.75');
    // The float sum drifts; ours does not.
    expect(prices.reduce((a, b) => a + b, 0)).not.toBe(290.75);
  });

  it('formats with as many decimals as the amount needs', () => {
    expect(formatUsd(0.0125)).toBe('$0.0125');
    expect(formatMicros(1_500_000)).toBe('$1.50');
    expect(formatMicros(1)).toBe('$0.000001');
    expect(formatMicros(0)).toBe('$0.00');
    expect(formatMicros(1_234_567_890_000)).toBe('$1,234,567.89');
    expect(formatMicros(-3_700)).toBe('-$0.0037');
  });

  it('groups thousands like en-US number formatting, for every safe amount', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (micros) => {
        const whole = Math.floor(Math.abs(micros) / 1_000_000).toLocaleString('en-US');
        const [shownWhole] = formatMicros(micros).replace(/^-?\$/, '').split('.');
        expect(shownWhole).toBe(whole);
      }),
    );
    expect(formatMicros(999_000_000)).toBe('$999.00');
    expect(formatMicros(1_000_000_000)).toBe('$1,000.00');
    expect(formatMicros(-1_000_000_000_000)).toBe('-$1,000,000.00');
  });

  it('sums any list of integer amounts like integers do', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1e9 }), { maxLength: 200 }), (list) => {
        expect(sumMicros(list)).toBe(list.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('refuses a total beyond exact integers', () => {
    expect(() => sumMicros([Number.MAX_SAFE_INTEGER, 1])).toThrow(RangeError);
  });
});
