/**
 * The viewer's shortcuts: part of the review's one keymap (src/features/review/keymap.ts spreads
 * them into KEYMAP, so the "?" dialog lists them and its test checks them). They live here because
 * the payload feature binds them and may not import the review feature (which renders it).
 */
export interface ViewerKeyBinding {
  /** react-hotkeys-hook combinations, comma-separated; null when matched by the character typed. */
  hotkeys: string | null;
  /** The characters that run it whatever the layout ("+" is Shift+= on one keyboard, a key of its own on another). */
  typed?: readonly string[];
  label: string;
  /** WAI-ARIA `aria-keyshortcuts` syntax ("Plus" names the + key, since "+" joins modifiers). */
  aria: string;
  scope: 'viewer';
  description: string;
}

export const VIEWER_KEYMAP = {
  zoomIn: { hotkeys: null, typed: ['+', '='], label: '+ / =', aria: 'Plus =', scope: 'viewer', description: 'zoom in on the image' },
  zoomOut: { hotkeys: null, typed: ['-'], label: '-', aria: '-', scope: 'viewer', description: 'zoom out' },
  fit: { hotkeys: '0', label: '0', aria: '0', scope: 'viewer', description: 'fit the image (reset zoom and pan)' },
  actualSize: { hotkeys: '1', label: '1', aria: '1', scope: 'viewer', description: 'show the image at 100%' },
  panLeft: { hotkeys: 'shift+left', label: 'Shift+←', aria: 'Shift+ArrowLeft', scope: 'viewer', description: 'pan left (zoomed in)' },
  panRight: { hotkeys: 'shift+right', label: 'Shift+→', aria: 'Shift+ArrowRight', scope: 'viewer', description: 'pan right (zoomed in)' },
  panUp: { hotkeys: 'shift+up', label: 'Shift+↑', aria: 'Shift+ArrowUp', scope: 'viewer', description: 'pan up (zoomed in)' },
  panDown: { hotkeys: 'shift+down', label: 'Shift+↓', aria: 'Shift+ArrowDown', scope: 'viewer', description: 'pan down (zoomed in)' },
  toggleOverlays: { hotkeys: 'h', label: 'h', aria: 'H', scope: 'viewer', description: 'hide or show all annotations' },
  treeView: { hotkeys: 't', label: 't', aria: 'T', scope: 'viewer', description: 'show the content as a JSON tree (again: as rendered)' },
  rawView: { hotkeys: 'r', label: 'r', aria: 'R', scope: 'viewer', description: 'show the raw JSON (again: as rendered)' },
} as const satisfies Record<string, ViewerKeyBinding>;

export type ViewerAction = keyof typeof VIEWER_KEYMAP;

/** The `aria-keyshortcuts` value of a viewer action. */
export const viewerAria = (action: ViewerAction): string => VIEWER_KEYMAP[action].aria;
