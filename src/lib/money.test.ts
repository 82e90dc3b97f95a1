import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatExact, formatMicros, formatTotal, formatUsd, isOverRange, microsToDecimal, OVER_RANGE, sumMicros, usdToMicros } from './money';

describe('money', () => {
  it('sums 10,000 fractional prices exactly in integer micro-USD', () => {
    const prices = Array.from({ length: 10_000 }, (_, i) => [0.0125, 0.0037, 0.1, 0.0001][i % 4]!);
    const total = sumMicros(prices.map(usdToMicros));
    // 2,500 × ($0.0125 + $0.0037 + $0.10 + $0.0001) = 2,500 × $0.1163, written out by hand.
    expect(total).toBe(290_750_000);
    expect(formatMicros(total)).toBe('$290.75');
  });

  it('gives exact totals where float sums drift', () => {
    // As floats, 0.1 + 0.2 is 0.30000000000000004 and ten 0.1s make 0.9999999999999999.
    expect(formatMicros(sumMicros([usdToMicros(0.1), usdToMicros(0.2)]))).toBe('$0.30');
    expect(sumMicros(Array.from({ length: 10 }, () => usdToMicros(0.1)))).toBe(1_000_000);
    expect(formatMicros(sumMicros(Array.from({ length: 3 }, () => usdToMicros(0.0037))))).toBe('$0.0111');
    expect(sumMicros([])).toBe(0);
    expect(sumMicros(new Set([1, 2, 3]))).toBe(6);
  });

  it('refuses fractional micro-USD rather than carry a float along', () => {
    expect(() => sumMicros([1, 0.5])).toThrow(RangeError);
    expect(() => sumMicros([NaN])).toThrow(RangeError);
    expect(() => formatMicros(0.5)).toThrow(RangeError);
    expect(() => formatMicros(NaN)).toThrow(RangeError);
  });

  it('formats with as many decimals as the amount needs', () => {
    expect(formatUsd(0.0125)).toBe('$0.0125');
    expect(formatMicros(1_500_000)).toBe('$1.50');
    expect(formatMicros(1)).toBe('$0.000001');
    expect(formatMicros(0)).toBe('$0.00');
    expect(formatMicros(1_234_567_890_000)).toBe('$1,234,567.89');
    expect(formatMicros(-3_700)).toBe('-$0.0037');
  });

  it('writes exact decimal text for files: no sign of currency, no grouping, no trailing zeros', () => {
    expect(microsToDecimal(12_500)).toBe('0.0125');
    expect(microsToDecimal(1_000_000)).toBe('1');
    expect(microsToDecimal(0)).toBe('0');
    expect(microsToDecimal(-3_700)).toBe('-0.0037');
    expect(microsToDecimal(1_234_567_890_123)).toBe('1234567.890123');
    expect(() => microsToDecimal(0.5)).toThrow(RangeError);
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

  it('gives a total past the exact integer range as "over", never a rounded number nor an error', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(sumMicros([max, 1])).toBe(OVER_RANGE);
    expect(sumMicros([5e15, 5e15, 3])).toBe(OVER_RANGE);
    expect(sumMicros([-max, -1])).toBe(-OVER_RANGE);
    expect(formatMicros(sumMicros([max, 1]))).toBe('over $9,007,199,254');
    expect(formatMicros(-OVER_RANGE)).toBe('under -$9,007,199,254');
    // Any amount past the range reads as over, whatever arithmetic made it.
    expect(formatMicros(max + 1)).toBe('over $9,007,199,254');
    expect(formatMicros(max)).toBe('$9,007,199,254.740991');
    expect(isOverRange(max)).toBe(false);
    expect(isOverRange(OVER_RANGE)).toBe(true);
  });

  it('stays exact past the range on the way: an amount that brings the total back gives it exactly', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(sumMicros([max, 10, -20])).toBe(max - 10);
    expect(sumMicros([max, max, -max])).toBe(max);
    fc.assert(
      fc.property(fc.array(fc.maxSafeInteger(), { maxLength: 20 }), (list) => {
        const exact = list.reduce((a, b) => a + BigInt(b), 0n);
        const expected = exact > BigInt(max) ? OVER_RANGE : exact < -BigInt(max) ? -OVER_RANGE : Number(exact);
        expect(sumMicros(list)).toBe(expected);
      }),
    );
  });

  it('adds totals that are already over, and refuses to add over to under', () => {
    expect(sumMicros([OVER_RANGE, 5])).toBe(OVER_RANGE);
    expect(sumMicros([3, OVER_RANGE, -Number.MAX_SAFE_INTEGER])).toBe(OVER_RANGE);
    expect(() => sumMicros([OVER_RANGE, -OVER_RANGE])).toThrow(RangeError);
    expect(() => sumMicros([Number.MAX_SAFE_INTEGER + 2])).toThrow(RangeError);
  });
});

describe('formatTotal and formatExact', () => {
  it('shows a total to the cent, half a cent away from zero, and the exact amount to the micro-dollar', () => {
    expect(formatTotal(34_000)).toBe('$0.03');
    expect(formatTotal(35_000)).toBe('$0.04');
    expect(formatTotal(-35_000)).toBe('-$0.04');
    expect(formatTotal(0)).toBe('$0.00');
    // Not zero, under half a cent: never "$0.00".
    expect(formatTotal(3_700)).toBe('<$0.01');
    expect(formatTotal(1)).toBe('<$0.01');
    expect(formatTotal(-4_999)).toBe('-<$0.01');
    expect(formatTotal(5_000)).toBe('$0.01');
    expect(formatTotal(1_234_567_890)).toBe('$1,234.57');
    expect(formatExact(34_000)).toBe('$0.034000');
    expect(formatExact(-3_700)).toBe('-$0.003700');
    expect(formatExact(1_234_567_890)).toBe('$1,234.567890');
    expect(formatTotal(OVER_RANGE)).toBe(formatMicros(OVER_RANGE));
    expect(formatExact(-OVER_RANGE)).toBe(formatMicros(-OVER_RANGE));
  });
});
