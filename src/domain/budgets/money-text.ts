/**
 * A limit typed as decimal text ("0.05", "$12", "1,250.5") read exactly into integer micro-USD,
 * digit by digit: no float ever stands for the amount. More than six decimals, a sign, or more
 * than the exact range are refused with a reason the field shows.
 */
export type MoneyText = { micros: number } | { error: string };

const PATTERN = /^\$?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/;

export function parseMoneyText(text: string): MoneyText {
  const trimmed = text.trim().replace(/\s+/g, '');
  if (trimmed === '') return { error: 'Enter an amount in USD, e.g. 0.05.' };
  if (trimmed.startsWith('-')) return { error: 'A limit cannot be negative.' };
  const match = PATTERN.exec(trimmed);
  if (!match || (match[1] === undefined && !match[2])) return { error: 'Enter an amount in USD, e.g. 0.05 (digits and one decimal point).' };
  const whole = (match[1] ?? '0').replace(/,/g, '');
  const fraction = match[2] ?? '';
  if (fraction.length > 6) return { error: 'At most six decimals (a millionth of a dollar).' };
  const digits = (whole + fraction.padEnd(6, '0')).replace(/^0+(?=\d)/, '');
  const micros = Number(digits);
  if (!Number.isSafeInteger(micros)) return { error: 'That amount is too large.' };
  return { micros };
}
