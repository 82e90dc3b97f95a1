import { useEffect, useLayoutEffect, useRef } from 'react';
import { comboMatcher, typedInField } from '../../../lib/key-combos';
import { ACTION_BY_HOTKEY, type KeyAction } from '../keymap';

export type ReviewKeyHandlers = Record<KeyAction, () => void>;

/** The keymap's combinations, parsed once. */
const actionOf = comboMatcher(ACTION_BY_HOTKEY);

/**
 * The review keyboard, bound from the keymap (keymap.ts) with one document listener. Keys typed in
 * fields (inputs, textareas, selects, and the roles react-hotkeys-hook counts as fields) are
 * theirs, so no shortcut fires while the user types. Handlers are read through a ref: the binding
 * is made once, not again on every render. `enabled` is asked at each key, not at each render: a
 * key can close what disabled the keys (a dispute's Enter closes the reason picker) before the
 * workspace renders again (focus-lead.ts). A disabled key does what it does in the page (Enter on a
 * dialog's button).
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
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typedInField(event) || !isEnabled.current()) return;
      // "?" depends on the keyboard layout, so it is matched by the character typed.
      const action = event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey ? 'help' : actionOf(event);
      if (!action) return;
      event.preventDefault();
      latest.current[action]();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
