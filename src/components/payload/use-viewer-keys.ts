import { useLayoutEffect, useRef, type RefObject } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { VIEWER_KEYMAP, type ViewerAction, type ViewerKeyBinding } from './viewer-keymap';

export type ViewerKeyHandlers = Partial<Record<ViewerAction, () => void>>;

const entries = Object.entries(VIEWER_KEYMAP) as [ViewerAction, ViewerKeyBinding][];
const BY_HOTKEY = new Map(entries.flatMap(([action, b]) => (b.hotkeys ? b.hotkeys.split(',').map((c) => [c.trim(), action] as const) : [])));
const BY_CHARACTER = new Map(entries.flatMap(([action, b]) => (b.typed ?? []).map((c) => [c, action] as const)));
const HOTKEYS = [...BY_HOTKEY.keys()];
// "+" joins modifiers in react-hotkeys-hook's syntax: characters are split on a key no one types.
const CHARACTERS = [...BY_CHARACTER.keys()].join('\u0000');

/**
 * Binds the viewer's keys (viewer-keymap.ts) on the document while `enabled`, and only while `root`
 * is shown: the review renders the next item hidden (or aria-hidden) beside the focused one, whose viewer must not
 * answer. Handlers are read through a ref, so the bindings are made once.
 */
export function useViewerKeys(handlers: ViewerKeyHandlers, enabled: boolean, root: RefObject<HTMLElement | null>) {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  }, [handlers]);
  const inactive = () => {
    const element = root.current;
    // Hidden, or rendered invisible and aria-hidden beside the focused item (the review's next one).
    // Not `inert`: the review lifts it from the focused item a frame after the keypress that shows
    // it, and a key pressed in that frame is for the item on screen.
    return !element || !element.isConnected || element.closest('[hidden], [aria-hidden="true"]') !== null;
  };
  const run = (action: ViewerAction | undefined, event: KeyboardEvent) => {
    const handler = action && latest.current[action];
    if (!handler) return;
    event.preventDefault();
    handler();
  };
  useHotkeys(HOTKEYS, (event, { hotkey }) => run(BY_HOTKEY.get(hotkey), event), { enabled, ignoreEventWhen: inactive }, []);
  useHotkeys(
    CHARACTERS,
    (event) => run(BY_CHARACTER.get(event.key), event),
    {
      enabled,
      useKey: true,
      // Shift makes "+" on many layouts; Ctrl, Alt or ⌘ with "+" or "-" is the browser's own zoom.
      ignoreModifiers: true,
      ignoreEventWhen: (event) => inactive() || event.ctrlKey || event.metaKey || event.altKey,
      delimiter: '\u0000',
      splitKey: '\u0001',
    },
    [],
  );
}
