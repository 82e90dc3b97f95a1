/** A whole day as URLs, filters and chart axes write it: `YYYY-MM-DD`. */
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The UTC day of a timestamp, `YYYY-MM-DD`; timestamps without a zone are read as UTC; 'unknown'
 * when it cannot be read. Usage and reconciliation group by it, so their days always agree.
 */
export function dayOf(timestamp: string): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(timestamp)) return timestamp.slice(0, 10);
  const parsed = new Date(timestamp);
  return Number.isNaN(parsed.getTime()) ? 'unknown' : parsed.toISOString().slice(0, 10);
}
