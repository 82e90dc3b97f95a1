import { microsToDecimal, usdToMicros } from '../api/contract/money';

/**
 * Money on screen: integer micro-USD in, exact text out. "$0.0125" stays $0.0125;
 * whole cents show two decimals; never a float sum on the way.
 */
export function formatMicros(micros: number): string {
  const [whole = '0', fraction = ''] = microsToDecimal(Math.abs(micros)).split('.');
  return `${micros < 0 ? '-' : ''}$${groupThousands(whole)}.${fraction.padEnd(2, '0')}`;
}

/** "1234567" → "1,234,567". By hand: `toLocaleString` builds a formatter on every call, and money is formatted in every list row. */
function groupThousands(digits: string): string {
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
  return out;
}

/** A wire USD number (e.g. `unit_price_usd`) formatted exactly. */
export const formatUsd = (usd: number): string => formatMicros(usdToMicros(usd));

/** Sums integer micro-USD amounts; throws rather than lose precision. */
export function sumMicros(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) {
    total += amount;
    if (!Number.isSafeInteger(total)) throw new RangeError('total exceeds the exact integer range');
  }
  return total;
}

export { microsToDecimal, usdToMicros };
