import { render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useViewerKeys, type ViewerKeyHandlers } from '../payload';
import { ShortcutsDialog } from './components/shortcuts';
import { useReviewKeys, type ReviewKeyHandlers } from './components/use-review-keys';
import { KEYMAP, type KeyBinding } from './keymap';

type Action = keyof typeof KEYMAP;
const actions = Object.keys(KEYMAP) as Action[];
const binding = (action: Action): KeyBinding => KEYMAP[action];

/** An `aria-keyshortcuts` alternative ("Shift+A", "ArrowDown", "Control+Z", "Plus") as user-event keys. */
function asUserEvent(shortcut: string): string {
  if (shortcut === 'Plus') return '+';
  const parts = shortcut.split('+');
  const key = parts.pop()!;
  const typed = key.length === 1 ? (parts.includes('Shift') ? key.toUpperCase() : key.toLowerCase()) : `{${key}}`;
  return (
    parts.map((m) => `{${m}>}`).join('') +
    typed +
    [...parts]
      .reverse()
      .map((m) => `{/${m}}`)
      .join('')
  );
}

/** An `aria-keyshortcuts` alternative in react-hotkeys-hook's words ("shift+a", "down", "ctrl+z"). */
function asHotkey(shortcut: string): string {
  const names: Record<string, string> = {
    Control: 'ctrl',
    Meta: 'meta',
    Shift: 'shift',
    ArrowDown: 'down',
    ArrowUp: 'up',
    ArrowLeft: 'left',
    ArrowRight: 'right',
  };
  return shortcut
    .split('+')
    .map((part) => names[part] ?? part.toLowerCase())
    .join('+');
}

/** The keys an action is bound to: its combinations, or the characters it is matched by. */
function bound(action: Action): string[] {
  const { hotkeys, typed } = binding(action);
  if (hotkeys === null) return [...(typed ?? [])];
  // "mod" is Ctrl on Windows and Linux, ⌘ on macOS: both are announced.
  return hotkeys.split(',').flatMap((combo) => {
    const c = combo.trim();
    return c.startsWith('mod+') ? [c.replace('mod+', 'ctrl+'), c.replace('mod+', 'meta+')] : [c];
  });
}

describe('the keymap is the one source of the shortcuts', () => {
  it('each binding names the same keys as its aria-keyshortcuts', () => {
    for (const action of actions) {
      const { hotkeys, typed, aria } = binding(action);
      if (hotkeys === null && !typed) continue;
      const announced = aria.split(' ').map((a) => (hotkeys === null ? (a === 'Plus' ? '+' : a) : asHotkey(a)));
      expect(new Set(announced), action).toEqual(new Set(bound(action)));
    }
  });

  it('no key runs two actions, whatever their scope', () => {
    const seen = new Map<string, Action>();
    for (const action of actions) {
      for (const key of [...bound(action), ...(action === 'help' ? ['?'] : [])]) {
        expect(seen.get(key), `${key}: ${action} and ${seen.get(key)}`).toBeUndefined();
        seen.set(key, action);
      }
    }
  });

  it('every announced key runs its action, and only it (the workspace’s and the focused viewer’s)', async () => {
    const handlers = Object.fromEntries(actions.map((a) => [a, vi.fn()])) as unknown as Record<Action, ReturnType<typeof vi.fn>>;
    const review = Object.fromEntries(actions.filter((a) => binding(a).scope === 'review').map((a) => [a, handlers[a]]));
    const viewer = Object.fromEntries(actions.filter((a) => binding(a).scope === 'viewer').map((a) => [a, handlers[a]]));
    // The viewer answers only while its element is shown.
    const shown = document.createElement('section');
    document.body.append(shown);
    renderHook(() => {
      useReviewKeys(review as unknown as ReviewKeyHandlers, true);
      useViewerKeys(viewer as unknown as ViewerKeyHandlers, true, { current: shown });
    });
    const user = userEvent.setup();
    for (const action of actions) {
      for (const shortcut of binding(action).aria.split(' ')) {
        for (const fn of Object.values(handlers)) fn.mockClear();
        await user.keyboard(asUserEvent(shortcut));
        expect(handlers[action], `${shortcut} → ${action}`).toHaveBeenCalledTimes(1);
        for (const other of actions) if (other !== action) expect(handlers[other], `${shortcut} must not run ${other}`).not.toHaveBeenCalled();
      }
    }
    // A viewer hidden (the review's next item, rendered ahead) answers nothing.
    shown.hidden = true;
    for (const fn of Object.values(handlers)) fn.mockClear();
    await user.keyboard('h+0');
    expect(handlers.toggleOverlays).not.toHaveBeenCalled();
    expect(handlers.zoomIn).not.toHaveBeenCalled();
    expect(handlers.fit).not.toHaveBeenCalled();
    shown.remove();
  });

  it('the help dialog lists every shortcut of the keymap', () => {
    render(<ShortcutsDialog open onOpenChange={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const action of actions) {
      const { label, description } = binding(action);
      expect(within(dialog).getByText(label, { selector: 'kbd' })).toBeInTheDocument();
      expect(within(dialog).getByText(description)).toBeInTheDocument();
    }
  });

  it('no component writes its own aria-keyshortcuts: each comes from the keymap', () => {
    const sources = import.meta.glob<string>('../../**/*.tsx', { query: '?raw', import: 'default', eager: true });
    const literal = Object.entries(sources).filter(([file, text]) => !file.endsWith('.test.tsx') && /aria-keyshortcuts="/.test(text));
    expect(literal.map(([file]) => file)).toEqual([]);
    expect(Object.values(sources).some((text) => text.includes('aria-keyshortcuts={ariaKeys('))).toBe(true);
    expect(Object.values(sources).some((text) => text.includes('aria-keyshortcuts={viewerAria('))).toBe(true);
  });
});
