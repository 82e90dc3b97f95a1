import { microsToDecimal, usdToMicros } from '../api/contract/money';

/**
 * A total past the exact integer range (more than Number.MAX_SAFE_INTEGER micro-USD, about
 * $9 billion): no longer a count of micro-USD but a marker, shown as "over $9,007,199,254".
 * Negated, it is a total below the range. A total is either exact or explicitly over.
 */
export const OVER_RANGE = Number.POSITIVE_INFINITY;
export const isOverRange = (micros: number): boolean => Math.abs(micros) > Number.MAX_SAFE_INTEGER;
const RANGE_LIMIT = `$${groupThousands(String(Math.floor(Number.MAX_SAFE_INTEGER / 1_000_000)))}`;

/**
 * Money on screen: integer micro-USD in, exact text out. "$0.0125" stays $0.0125;
 * whole cents show two decimals; never a float sum on the way. An amount past the exact
 * range says so ("over $9,007,199,254") rather than show digits it cannot vouch for.
 */
export function formatMicros(micros: number): string {
  if (isOverRange(micros)) return micros > 0 ? `over ${RANGE_LIMIT}` : `under -${RANGE_LIMIT}`;
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

/**
 * Sums integer micro-USD amounts exactly: the total, or OVER_RANGE (negated: below the range)
 * when it leaves the exact integer range, so a page shows "over …" with its rows rather than
 * fail. Amounts may be such markers themselves (a sum of sums). Fractions and NaN throw: a float
 * must never pass for money.
 */
export function sumMicros(amounts: Iterable<number>): number {
  let total = 0;
  // Past the range, the exact sum goes on in a bigint: a later negative amount may bring it back.
  let big: bigint | null = null;
  let marker = 0;
  for (const amount of amounts) {
    if (amount === OVER_RANGE || amount === -OVER_RANGE) {
      if (marker !== 0 && marker !== amount) throw new RangeError('a total over and a total under the exact range cannot be added');
      marker = amount;
    } else if (!Number.isSafeInteger(amount)) {
      throw new RangeError(`not an integer amount: ${amount}`);
    } else if (big !== null) {
      big += BigInt(amount);
    } else if (Number.isSafeInteger(total + amount)) {
      total += amount;
    } else {
      big = BigInt(total) + BigInt(amount);
    }
  }
  if (marker !== 0) return marker;
  if (big === null) return total;
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) return OVER_RANGE;
  if (big < -BigInt(Number.MAX_SAFE_INTEGER)) return -OVER_RANGE;
  return Number(big);
}

export { microsToDecimal, usdToMicros };

/**
 * A total as a person reads it: to the cent ("$0.03"), half a cent rounded away from zero, and
 * "<$0.01" for an amount above zero that rounds to nothing. The
 * exact amount goes with it for the hover (formatExact) and in exports; unit prices keep their
 * own precision (formatMicros).
 */
export function formatTotal(micros: number): string {
  if (isOverRange(micros)) return formatMicros(micros);
  const cents = Math.round(Math.abs(micros) / 10_000);
  // A charge under half a cent is not nothing: "$0.00" beside a receipt of $0.0037 read as free.
  if (cents === 0 && micros !== 0) return `${micros < 0 ? '-' : ''}<$0.01`;
  return formatMicros((micros < 0 ? -cents : cents) * 10_000);
}

/** Every micro-dollar of an amount: "$0.034000", the hover of a total shown to the cent. */
export function formatExact(micros: number): string {
  if (isOverRange(micros)) return formatMicros(micros);
  const [whole = '0', fraction = ''] = microsToDecimal(Math.abs(micros)).split('.');
  return `${micros < 0 ? '-' : ''}$${groupThousands(whole)}.${fraction.padEnd(6, '0')}`;
}
