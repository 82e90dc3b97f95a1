import { useEffect, useLayoutEffect, useRef } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';

export interface ReviewKeyHandlers {
  next: () => void;
  previous: () => void;
  first: () => void;
  last: () => void;
  adopt: () => void;
  dispute: () => void;
  undo: () => void;
  toggleSelect: () => void;
  adoptSelection: () => void;
  disputeSelection: () => void;
  pullNext: () => void;
  help: () => void;
}

/**
 * The review keyboard. react-hotkeys-hook ignores keys typed in inputs, textareas and
 * selects, so no shortcut fires while the user types. Handlers are read through a ref:
 * the bindings are made once, not again on every render (the library binds in a layout
 * effect, which would sit between each keypress and its paint).
 */
export function useReviewKeys(handlers: ReviewKeyHandlers, enabled: boolean) {
  const latest = useRef(handlers);
  // Updated in the commit itself, so the very next keypress sees this render's handlers (the
  // workspace's are stable: then this runs once).
  useLayoutEffect(() => {
    latest.current = handlers;
  }, [handlers]);
  const options = { enabled, preventDefault: true };
  useHotkeys('j, down', () => latest.current.next(), options, []);
  useHotkeys('k, up', () => latest.current.previous(), options, []);
  useHotkeys('home', () => latest.current.first(), options, []);
  useHotkeys('end', () => latest.current.last(), options, []);
  useHotkeys('a', () => latest.current.adopt(), options, []);
  useHotkeys('d', () => latest.current.dispute(), options, []);
  useHotkeys('z, mod+z', () => latest.current.undo(), options, []);
  useHotkeys('x', () => latest.current.toggleSelect(), options, []);
  useHotkeys('shift+a', () => latest.current.adoptSelection(), options, []);
  useHotkeys('shift+d', () => latest.current.disputeSelection(), options, []);
  useHotkeys('n', () => latest.current.pullNext(), options, []);

  // "?" depends on the keyboard layout, so it is matched by the character typed.
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      if (event.key === '?' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        latest.current.help();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
