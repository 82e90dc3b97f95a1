import { useEffect, useState } from 'react';

// The console's type scale: every family, size and weight its pages set (a face is found per
// family, weight and size). Whole class names, so Tailwind generates each.
const FAMILIES = ['font-sans', 'font-mono'];
const SIZES = ['text-[0.65rem]', 'text-xs', 'text-sm', 'text-base', 'text-lg'];
const WEIGHTS = ['font-normal', 'font-medium', 'font-semibold', 'font-bold'];
const FACES = FAMILIES.flatMap((family) => SIZES.flatMap((size) => WEIGHTS.map((weight) => `${family} ${size} ${weight}`)));

/**
 * A line of text in each face of the console's type scale, laid out where nobody sees or hears it,
 * once the browser is idle. A browser finds a font the first time it lays out text in it, and on
 * Linux each family of a stack that is not installed is a round trip to the browser process
 * (~0.5 ms; the monospace stack names five): the review's first page of items paid 10–15 ms of
 * such lookups in its first layout (bench:ui, traced), while the user looked at an empty page.
 */
export function FontWarmup() {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const warm = () => setIdle(true);
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(warm, { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(warm, 0);
    return () => clearTimeout(timer);
  }, []);
  if (!idle) return null;
  return (
    // Laid out (so its fonts load) but of no size, and hidden from assistive technology.
    <div aria-hidden="true" className="pointer-events-none absolute size-0 overflow-hidden">
      {FACES.map((face) => (
        <span key={face} className={face}>
          Aa0$.
        </span>
      ))}
    </div>
  );
}
