import { startTransition, useEffect, useState } from 'react';
import { afterPaint } from '../../../lib/after-paint';

/**
 * `value`, once the frame that changed it has been painted: what is rendered from it (the next
 * item, hidden beside the focused one) is rendered after the keypress's paint, as a transition a
 * new keypress interrupts. `useDeferredValue` rendered it in a task that could run before that paint.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    let cancelled = false;
    afterPaint(() => {
      if (!cancelled) startTransition(() => setShown(() => value));
    });
    return () => {
      cancelled = true;
    };
  }, [value]);
  return shown;
}
