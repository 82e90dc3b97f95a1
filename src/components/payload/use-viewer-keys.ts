import { useLayoutEffect, useRef, type RefObject } from 'react';
import { keyName, typedInField } from '../../lib/key-combos';
import { VIEWER_KEYMAP, type ViewerAction, type ViewerKeyBinding } from './viewer-keymap';

export type ViewerKeyHandlers = Partial<Record<ViewerAction, () => void>>;

const entries = Object.entries(VIEWER_KEYMAP) as [ViewerAction, ViewerKeyBinding][];
/** Each combination ("shift+arrowleft", "h"), with exactly the modifiers it names, to its action. */
const BY_COMBINATION = new Map(
  entries.flatMap(([action, b]) =>
    (b.hotkeys ?? '')
      .split(',')
      .filter((c) => c.trim())
      .map((c) => {
        const parts = c.trim().split('+');
        const key = keyName(parts.pop()!);
        return [`${parts.includes('shift') ? 'shift+' : ''}${key}`, action] as const;
      }),
  ),
);
const BY_CHARACTER = new Map(entries.flatMap(([action, b]) => (b.typed ?? []).map((c) => [c, action] as const)));

function actionOf(event: KeyboardEvent): ViewerAction | undefined {
  if (typedInField(event)) return;
  // Ctrl, Alt or ⌘ with a key is the browser's or the system's (with "+" or "-": the browser's zoom).
  if (event.ctrlKey || event.metaKey || event.altKey || event.getModifierState?.('AltGraph')) return;
  // "+" is Shift+= on one layout and a key of its own on another: matched by the character typed.
  const typed = BY_CHARACTER.get(event.key?.toLowerCase());
  if (typed) return typed;
  return event.code ? BY_COMBINATION.get(`${event.shiftKey ? 'shift+' : ''}${keyName(event.code)}`) : undefined;
}

/** Hidden, or rendered invisible and aria-hidden beside the focused item (the review's next one). */
function inactive(root: HTMLElement | null) {
  // Not `inert`: the review lifts it from the focused item a frame after the keypress that shows
  // it, and a key pressed in that frame is for the item on screen.
  return !root || !root.isConnected || root.closest('[hidden], [aria-hidden="true"]') !== null;
}

/**
 * Binds the viewer's keys (viewer-keymap.ts) on the document while `enabled`, and only while `root`
 * is shown: the review renders the next item hidden (or aria-hidden) beside the focused one, whose
 * viewer must not answer. Keys typed in fields are theirs. Handlers are read through a ref, so the
 * binding is made once.
 */
export function useViewerKeys(handlers: ViewerKeyHandlers, enabled: boolean, root: RefObject<HTMLElement | null>) {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  }, [handlers]);
  useLayoutEffect(() => {
    if (!enabled) return;
    // A plain listener per viewer: the review keeps several items rendered (hidden) beside the
    // focused one, and with react-hotkeys-hook each of their 16 listeners parsed its combinations
    // again on every key (a third of a millisecond of each keypress before its paint). Here a key is
    // matched against the combinations parsed once, above, and a key no viewer binds (j, a, d) is
    // let go after two map lookups.
    const onKeyDown = (event: KeyboardEvent) => {
      const action = actionOf(event);
      const handler = action && latest.current[action];
      if (!handler || inactive(root.current)) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled, root]);
}
