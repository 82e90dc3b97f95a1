/**
 * Wire amounts are USD numbers (`unit_price_usd`, `amount_usd`); everything else
 * counts integer micro-USD. `usdToMicros` and `microsToUsd` are the only crossing points;
 * `microsToDecimal` is the one way micro-USD become text.
 */
export const MICROS_PER_USD = 1_000_000;

/**
 * Converts a wire USD number to integer micro-USD without float arithmetic on the
 * digits: the number's shortest decimal text is read digit by digit, so 0.0125 is
 * exactly 12500. Digits beyond the sixth decimal are rounded half away from zero.
 */
export function usdToMicros(usd: number): number {
  if (!Number.isFinite(usd)) throw new RangeError(`not a finite amount: ${usd}`);
  // Most wire amounts have at most six decimals: then the product's nearest integer is the amount,
  // and dividing it back gives the same double (the division is exactly rounded). Below 1e9 USD
  // two such amounts lie further apart than a double's spacing, so only one can: the same integer
  // the digits give. Every other amount (a seventh decimal to round) is read from its digits.
  // The digits cost ~15 µs an amount in a fresh page: a pull's 200 prices took 3 ms (bench:ui, traced).
  if (Math.abs(usd) < 1e9) {
    const micros = Math.round(usd * MICROS_PER_USD);
    if (micros / MICROS_PER_USD === usd) return micros + 0; // + 0: -0 is 0.
  }
  const negative = usd < 0;
  const [mantissa = '0', exponentText] = Math.abs(usd).toString().split('e');
  const exponent = exponentText ? Number(exponentText) : 0;
  const [whole = '0', fraction = ''] = mantissa.split('.');
  // Shift the decimal point by the exponent, then by six places for micro-units.
  const digits = whole + fraction;
  const point = whole.length + exponent + 6;
  let micros: number;
  if (point <= 0) {
    micros = point === 0 && Number(digits[0]) >= 5 ? 1 : 0;
  } else {
    const padded = digits.padEnd(point, '0');
    micros = Number(padded.slice(0, point));
    if (Number(padded[point] ?? '0') >= 5) micros += 1;
  }
  if (!Number.isSafeInteger(micros)) throw new RangeError(`amount out of range: ${usd}`);
  return negative && micros !== 0 ? -micros : micros;
}

/** Integer micro-USD as exact decimal text in USD, without trailing zeros: 12500 → "0.0125", 1000000 → "1". */
export function microsToDecimal(micros: number): string {
  if (!Number.isSafeInteger(micros)) throw new RangeError(`not an integer amount: ${micros}`);
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const fraction = String(abs % MICROS_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.floor(abs / MICROS_PER_USD)}${fraction ? `.${fraction}` : ''}`;
}

/** Integer micro-USD to the wire's USD number (the closest double to the exact decimal, e.g. 12500 → 0.0125). */
export const microsToUsd = (micros: number): number => Number(microsToDecimal(micros));
