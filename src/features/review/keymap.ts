import { DISPUTE_KEYMAP } from '../dispute-reasons';
import { VIEWER_KEYMAP } from '../../components/payload';

/**
 * Every review shortcut, written once (after Label Studio's keymap.json). This table drives the
 * bindings (use-review-keys.ts, and the payload viewer's for scope 'viewer'), the "?" dialog
 * (shortcuts.tsx) and every `aria-keyshortcuts` (`ariaKeys`); keymap.test.ts checks that they agree.
 * The viewer's part is written in the payload feature and the dispute dialog's in dispute-reasons
 * (neither may import this one); both are joined here.
 */
export interface KeyBinding {
  /** react-hotkeys-hook combinations, comma-separated; null when matched by the character typed. */
  hotkeys: string | null;
  /** The keys as the help dialog shows them. */
  label: string;
  /** Characters matched as typed, whatever the layout (the viewer's + and -). */
  typed?: readonly string[];
  /** The keys for `aria-keyshortcuts` (WAI-ARIA syntax: modifiers then key, alternatives space-separated). */
  aria: string;
  /**
   * 'review': the workspace; 'viewer': the focused item's content (image tools, tree and raw views);
   * 'dispute': the dispute dialog's reason, only while the focus is in it (its 1 is not the viewer's).
   */
  scope: 'review' | 'viewer' | 'dispute';
  description: string;
}

const REVIEW_KEYMAP = {
  next: { hotkeys: 'j, down', label: 'j / ↓', aria: 'J ArrowDown', scope: 'review', description: 'next item' },
  previous: { hotkeys: 'k, up', label: 'k / ↑', aria: 'K ArrowUp', scope: 'review', description: 'previous item' },
  first: { hotkeys: 'home', label: 'Home', aria: 'Home', scope: 'review', description: 'first item of the list' },
  last: { hotkeys: 'end', label: 'End', aria: 'End', scope: 'review', description: 'last item of the list' },
  adopt: { hotkeys: 'a', label: 'a', aria: 'A', scope: 'review', description: 'adopt the focused item' },
  dispute: {
    hotkeys: 'd',
    label: 'd',
    aria: 'D',
    scope: 'review',
    description: 'dispute: a reason picker opens (a code by number, optional text; Enter confirms, Enter alone disputes without a reason, Esc cancels)',
  },
  undo: {
    hotkeys: 'z, ctrl+z, meta+z',
    label: 'z / Ctrl+Z / ⌘Z',
    aria: 'Z Control+Z Meta+Z',
    scope: 'review',
    description: 'undo the last decision still in its undo window',
  },
  toggleSelect: { hotkeys: 'x', label: 'x', aria: 'X', scope: 'review', description: 'select or unselect the focused item' },
  adoptSelection: { hotkeys: 'shift+a', label: 'Shift+A', aria: 'Shift+A', scope: 'review', description: 'adopt the selection' },
  disputeSelection: { hotkeys: 'shift+d', label: 'Shift+D', aria: 'Shift+D', scope: 'review', description: 'dispute the selection' },
  pullNext: { hotkeys: 'n', label: 'n', aria: 'N', scope: 'review', description: 'pull the next page' },
  nextBatch: {
    hotkeys: 'b',
    label: 'b',
    aria: 'B',
    scope: 'review',
    description: 'on a team hub: take the next batch from the team’s queue once this one is done',
  },
  focusMode: { hotkeys: 'f', label: 'f', aria: 'F', scope: 'review', description: 'focus mode: only the item card (again: the whole workspace)' },
  // "?" depends on the keyboard layout, so it is matched by the character typed (use-review-keys.ts).
  help: { hotkeys: null, label: '?', aria: '?', scope: 'review', description: 'show these shortcuts' },
} as const satisfies Record<string, KeyBinding>;

/** Every shortcut: the workspace's, the viewer's, then the dispute dialog's. */
export const KEYMAP = { ...REVIEW_KEYMAP, ...VIEWER_KEYMAP, ...DISPUTE_KEYMAP } as const satisfies Record<string, KeyBinding>;

/** The workspace's actions (use-review-keys.ts binds them); the viewer binds its own. */
export type KeyAction = keyof typeof REVIEW_KEYMAP;

/** The `aria-keyshortcuts` value of an action. */
export const ariaKeys = (action: KeyAction): string => KEYMAP[action].aria;

/** Each of the workspace's hotkey combinations (as react-hotkeys-hook reports it) to its action. */
export const ACTION_BY_HOTKEY: ReadonlyMap<string, KeyAction> = new Map(
  (Object.entries(REVIEW_KEYMAP) as [KeyAction, KeyBinding][]).flatMap(([action, binding]) =>
    binding.hotkeys ? binding.hotkeys.split(',').map((combo) => [combo.trim(), action] as const) : [],
  ),
);
