import { useLayoutEffect, useRef } from 'react';

/**
 * Where the element starts on the page, as the CSS variable --fill-top (px), so its height can be
 * the rest of the window: `calc(100dvh - var(--fill-top))`. Measured, not assumed: the app's header,
 * and the banners above the page (a refused key, decisions waiting), change what is left. Measured
 * again when the window or the page above it changes size, never on a keypress.
 */
export function useFillWindow<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const top = `${Math.max(0, Math.round(element.getBoundingClientRect().top + window.scrollY))}px`;
      if (element.style.getPropertyValue('--fill-top') !== top) element.style.setProperty('--fill-top', top);
    };
    measure();
    window.addEventListener('resize', measure);
    // A banner above the page changes the body's size (the element's own height, set from this, does not move its top).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, []);
  return ref;
}
