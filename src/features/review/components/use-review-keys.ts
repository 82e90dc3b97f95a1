import { useEffect } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';

export interface ReviewKeyHandlers {
  next: () => void;
  previous: () => void;
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
 * selects, so no shortcut fires while the user types.
 */
export function useReviewKeys(handlers: ReviewKeyHandlers, enabled: boolean) {
  const options = { enabled, preventDefault: true };
  useHotkeys('j, down', handlers.next, options, [handlers.next]);
  useHotkeys('k, up', handlers.previous, options, [handlers.previous]);
  useHotkeys('a', handlers.adopt, options, [handlers.adopt]);
  useHotkeys('d', handlers.dispute, options, [handlers.dispute]);
  useHotkeys('z, mod+z', handlers.undo, options, [handlers.undo]);
  useHotkeys('x', handlers.toggleSelect, options, [handlers.toggleSelect]);
  useHotkeys('shift+a', handlers.adoptSelection, options, [handlers.adoptSelection]);
  useHotkeys('shift+d', handlers.disputeSelection, options, [handlers.disputeSelection]);
  useHotkeys('n', handlers.pullNext, options, [handlers.pullNext]);
  // "?" depends on the keyboard layout, so it is matched by the character typed.
  const { help } = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      if (event.key === '?' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        help();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled, help]);
}
