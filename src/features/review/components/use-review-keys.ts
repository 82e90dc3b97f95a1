import { useEffect, useLayoutEffect, useRef } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { ACTION_BY_HOTKEY, type KeyAction } from '../keymap';

export type ReviewKeyHandlers = Record<KeyAction, () => void>;

const ALL_HOTKEYS = [...ACTION_BY_HOTKEY.keys()];

/**
 * The review keyboard, bound from the keymap (keymap.ts). react-hotkeys-hook ignores keys typed
 * in inputs, textareas and selects, so no shortcut fires while the user types. Handlers are read
 * through a ref: the bindings are made once, not again on every render (the library binds in a
 * layout effect, which would sit between each keypress and its paint).
 */
export function useReviewKeys(handlers: ReviewKeyHandlers, enabled: boolean) {
  const latest = useRef(handlers);
  // Updated in the commit itself, so the very next keypress sees this render's handlers (the
  // workspace's are stable: then this runs once).
  useLayoutEffect(() => {
    latest.current = handlers;
  }, [handlers]);
  // One binding for the whole table: the library names the combination that fired.
  useHotkeys(
    ALL_HOTKEYS,
    (_event, { hotkey }) => {
      const action = ACTION_BY_HOTKEY.get(hotkey);
      if (action) latest.current[action]();
    },
    { enabled, preventDefault: true },
    [],
  );

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
