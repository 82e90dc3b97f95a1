import { cx } from '../../lib/cx';
import { formatExact, formatTotal, isOverRange } from '../../lib/money';

/**
 * A total as a person reads it: to the cent, with the exact micro-dollar amount as its hover. A
 * hover reaches neither the keyboard nor a screen reader, so when the cents are rounded the exact
 * amount is in the text as well, visually hidden. Unit prices are not totals: they keep their own
 * precision (formatMicros), and so do exports.
 *
 * `relative`: the hidden text is positioned absolutely; without a containing block of its own, in a
 * table that scrolls sideways it would be placed by the page, past the scroller, and widen the page.
 */
export function Total({ micros, className }: { micros: number; className?: string }) {
  const exact = formatExact(micros);
  return (
    <span className={cx('relative font-mono tabular-nums', className)}>
      <span title={exact}>{formatTotal(micros)}</span>
      {!isOverRange(micros) && micros % 10_000 !== 0 && <span className="sr-only"> (exactly {exact})</span>}
    </span>
  );
}
