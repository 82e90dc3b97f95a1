/**
 * Wire amounts are USD numbers (`unit_price_usd`, `amount_usd`); everything else
 * counts integer micro-USD. These two functions are the only crossing points.
 */
export const MICROS_PER_USD = 1_000_000;

/**
 * Converts a wire USD number to integer micro-USD without float arithmetic on the
 * digits: the number's shortest decimal text is read digit by digit, so 0.0125 is
 * exactly 12500. Digits beyond the sixth decimal are rounded half away from zero.
 */
export function usdToMicros(usd: number): number {
  if (!Number.isFinite(usd)) throw new RangeError(`not a finite amount: ${usd}`);
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

/** Integer micro-USD to the wire's USD number (the closest double, e.g. 12500 → 0.0125). */
export function microsToUsd(micros: number): number {
  if (!Number.isSafeInteger(micros)) throw new RangeError(`micros must be a safe integer: ${micros}`);
  const negative = micros < 0;
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_USD);
  const fraction = String(abs % MICROS_PER_USD).padStart(6, '0');
  const value = Number(`${whole}.${fraction}`);
  return negative ? -value : value;
}
