/** ISO 8601 with Z, millisecond precision. */
export const nowIso = (): string => new Date().toISOString();

/** Parses durations like 7d, 30d, 90d, 1y, 1h, 15m into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,4})([smhdy])$/.exec(text);
  if (!match) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, y: 365 * 86_400_000 }[match[2] as 's'];
  return Number(match[1]) * unit;
}
