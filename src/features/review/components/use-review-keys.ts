import { useEffect, useLayoutEffect, useRef } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { ACTION_BY_HOTKEY, type KeyAction } from '../keymap';

export type ReviewKeyHandlers = Record<KeyAction, () => void>;

const ALL_HOTKEYS = [...ACTION_BY_HOTKEY.keys()];

/**
 * The review keyboard, bound from the keymap (keymap.ts). react-hotkeys-hook ignores keys typed
 * in inputs, textareas and selects, so no shortcut fires while the user types. Handlers are read
 * through a ref: the bindings are made once, not again on every render (the library binds in a
 * layout effect, which would sit between each keypress and its paint). `enabled` is asked at each
 * key, not at each render: a key can close what disabled the keys (a dispute's Enter closes the
 * reason picker) before the workspace renders again (focus-lead.ts).
 */
export function useReviewKeys(handlers: ReviewKeyHandlers, enabled: () => boolean) {
  const latest = useRef(handlers);
  const isEnabled = useRef(enabled);
  // Updated in the commit itself, so the very next keypress sees this render's handlers (the
  // workspace's are stable: then this runs once).
  useLayoutEffect(() => {
    latest.current = handlers;
    isEnabled.current = enabled;
  });
  // One binding for the whole table: the library names the combination that fired.
  useHotkeys(
    ALL_HOTKEYS,
    (_event, { hotkey }) => {
      const action = ACTION_BY_HOTKEY.get(hotkey);
      if (action) latest.current[action]();
    },
    // The library prevents the default before it asks `enabled`: asked for both, a disabled key
    // still does what it does in the page (Enter on a dialog's button).
    { enabled: () => isEnabled.current(), preventDefault: () => isEnabled.current() },
    [],
  );

  // "?" depends on the keyboard layout, so it is matched by the character typed.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isEnabled.current()) return;
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
      if (event.key === '?' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        latest.current.help();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
