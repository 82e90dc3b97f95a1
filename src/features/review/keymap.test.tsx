import { render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ShortcutsDialog } from './components/shortcuts';
import { useReviewKeys, type ReviewKeyHandlers } from './components/use-review-keys';
import { KEYMAP, type KeyAction } from './keymap';

const actions = Object.keys(KEYMAP) as KeyAction[];

/** An `aria-keyshortcuts` alternative ("Shift+A", "ArrowDown", "Control+Z") as user-event keys. */
function asUserEvent(shortcut: string): string {
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
  const names: Record<string, string> = { Control: 'ctrl', Meta: 'meta', Shift: 'shift', ArrowDown: 'down', ArrowUp: 'up' };
  return shortcut
    .split('+')
    .map((part) => names[part] ?? part.toLowerCase())
    .join('+');
}

describe('the keymap is the one source of the shortcuts', () => {
  it('each binding names the same keys as its aria-keyshortcuts', () => {
    for (const action of actions) {
      const { hotkeys, aria } = KEYMAP[action];
      if (hotkeys === null) continue;
      // "mod" is Ctrl on Windows and Linux, ⌘ on macOS: both are announced.
      const bound = hotkeys.split(',').flatMap((combo) => {
        const c = combo.trim();
        return c.startsWith('mod+') ? [c.replace('mod+', 'ctrl+'), c.replace('mod+', 'meta+')] : [c];
      });
      expect(new Set(aria.split(' ').map(asHotkey)), action).toEqual(new Set(bound));
    }
  });

  it('every announced key runs its action, and only it', async () => {
    const handlers = Object.fromEntries(actions.map((a) => [a, vi.fn()])) as unknown as Record<KeyAction, ReturnType<typeof vi.fn>>;
    renderHook(() => useReviewKeys(handlers as unknown as ReviewKeyHandlers, true));
    const user = userEvent.setup();
    for (const action of actions) {
      for (const shortcut of KEYMAP[action].aria.split(' ')) {
        for (const fn of Object.values(handlers)) fn.mockClear();
        await user.keyboard(asUserEvent(shortcut));
        expect(handlers[action], `${shortcut} → ${action}`).toHaveBeenCalledTimes(1);
        for (const other of actions) if (other !== action) expect(handlers[other], `${shortcut} must not run ${other}`).not.toHaveBeenCalled();
      }
    }
  });

  it('the help dialog lists every shortcut of the keymap', () => {
    render(<ShortcutsDialog open onOpenChange={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const action of actions) {
      const { label, description } = KEYMAP[action];
      expect(within(dialog).getByText(label, { selector: 'kbd' })).toBeInTheDocument();
      expect(within(dialog).getByText(description)).toBeInTheDocument();
    }
  });

  it('no component writes its own aria-keyshortcuts: each comes from the keymap', () => {
    const sources = import.meta.glob<string>('../../**/*.tsx', { query: '?raw', import: 'default', eager: true });
    const literal = Object.entries(sources).filter(([file, text]) => !file.endsWith('.test.tsx') && /aria-keyshortcuts="/.test(text));
    expect(literal.map(([file]) => file)).toEqual([]);
    expect(Object.values(sources).some((text) => text.includes('aria-keyshortcuts={ariaKeys('))).toBe(true);
  });
});
