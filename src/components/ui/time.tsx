/** Timestamps from the service without a zone suffix (live `created_at`) are UTC (docs/contract.md). */
const HAS_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

// One formatter for the page: building one per cell costs more than the whole row. Built on first
// use (not at import) and never changed: the reader's locale is fixed for the page's life.
// house: computed once
let localFormat: Intl.DateTimeFormat | null = null;
const local = () => (localFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));

/** Parses a service timestamp; null when it cannot be read. */
export function parseTimestamp(value: string): Date | null {
  const text = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value) && !HAS_ZONE.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `2026-11-22 07:41:10 UTC`: the instant in UTC, to the second. */
export const formatUtc = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** A timestamp in the reader's local time, with UTC on hover and in the machine-readable attribute. */
export function Time({ value, wrap = false }: { value: string; wrap?: boolean }) {
  const date = parseTimestamp(value);
  if (!date) return <span>{value}</span>;
  return (
    <time dateTime={date.toISOString()} title={formatUtc(date)} className={wrap ? undefined : 'whitespace-nowrap'}>
      {local().format(date)}
    </time>
  );
}
