import { useEffect, useId, useRef, useState } from 'react';
import { cx } from '../../lib/cx';
import { inputClass } from './field';

/** A whole day a filter can use: four-digit years only (typing "2026" passes through 0002, 0020, 0202). */
const COMPLETE_DAY = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/**
 * A date input whose value reaches the app only once it is a whole day.
 *
 * The browser keeps the segment being typed inside the input. Writing the value back from app
 * state while the user types (a controlled input round-tripping through the URL) resets that
 * segment: typing a year produced 0002, then nothing. So the input is left alone while it has
 * focus, and is brought in line with `value` when the value changes from elsewhere.
 */
export function DateField({
  label,
  value,
  onCommit,
  className,
}: {
  label: string;
  value: string | undefined;
  onCommit: (day: string | undefined) => void;
  className?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const [incomplete, setIncomplete] = useState(false);
  const id = useId();
  useEffect(() => {
    const input = ref.current;
    if (input && document.activeElement !== input && input.value !== (value ?? '')) input.value = value ?? '';
  }, [value]);
  return (
    <div className={cx('flex flex-col gap-1', className)}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        type="date"
        className={cx(inputClass, incomplete && 'border-red-600')}
        defaultValue={value ?? ''}
        aria-invalid={incomplete || undefined}
        aria-describedby={incomplete ? `${id}-error` : undefined}
        onChange={(event) => {
          const day = event.target.value;
          if (day === '' || COMPLETE_DAY.test(day)) {
            setIncomplete(false);
            if (day !== (value ?? '')) onCommit(day || undefined);
          }
        }}
        onBlur={(event) => setIncomplete(event.target.value !== '' && !COMPLETE_DAY.test(event.target.value))}
      />
      {incomplete && (
        <span id={`${id}-error`} className="text-xs font-medium text-red-700 dark:text-red-400">
          Enter a whole date with a four-digit year.
        </span>
      )}
    </div>
  );
}
