import { render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { NO_CHOICE, ReasonPicker, type ReasonChoice, type ReasonCode } from '../dispute-reasons';
import { useViewerKeys, type ViewerKeyHandlers } from '../../components/payload';
import { ShortcutsDialog } from './components/shortcuts';
import { useReviewKeys, type ReviewKeyHandlers } from './components/use-review-keys';
import { KEYMAP, type KeyBinding } from './keymap';

type Action = keyof typeof KEYMAP;
const actions = Object.keys(KEYMAP) as Action[];
const binding = (action: Action): KeyBinding => KEYMAP[action];
/** The workspace's and the viewer's keys share the document; the dispute dialog's answer only inside it. */
const pageActions = actions.filter((a) => binding(a).scope !== 'dispute');
const disputeActions = actions.filter((a) => binding(a).scope === 'dispute');

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

  it('no key runs two actions: among the workspace’s and the viewer’s, and among the dispute dialog’s', () => {
    for (const group of [pageActions, disputeActions]) {
      const seen = new Map<string, Action>();
      for (const action of group) {
        for (const key of [...bound(action), ...(action === 'help' ? ['?'] : [])]) {
          expect(seen.get(key), `${key}: ${action} and ${seen.get(key)}`).toBeUndefined();
          seen.set(key, action);
        }
      }
    }
    expect(disputeActions.length).toBeGreaterThan(0);
  });

  it('every announced key runs its action, and only it (the workspace’s and the focused viewer’s)', async () => {
    const handlers = Object.fromEntries(pageActions.map((a) => [a, vi.fn()])) as unknown as Record<Action, ReturnType<typeof vi.fn>>;
    const review = Object.fromEntries(pageActions.filter((a) => binding(a).scope === 'review').map((a) => [a, handlers[a]]));
    const viewer = Object.fromEntries(pageActions.filter((a) => binding(a).scope === 'viewer').map((a) => [a, handlers[a]]));
    // The viewer answers only while its element is shown.
    const shown = document.createElement('section');
    document.body.append(shown);
    renderHook(() => {
      useReviewKeys(review as unknown as ReviewKeyHandlers, () => true);
      useViewerKeys(viewer as unknown as ViewerKeyHandlers, true, { current: shown });
    });
    const user = userEvent.setup();
    for (const action of pageActions) {
      for (const shortcut of binding(action).aria.split(' ')) {
        for (const fn of Object.values(handlers)) fn.mockClear();
        await user.keyboard(asUserEvent(shortcut));
        expect(handlers[action], `${shortcut} → ${action}`).toHaveBeenCalledTimes(1);
        for (const other of pageActions) if (other !== action) expect(handlers[other], `${shortcut} must not run ${other}`).not.toHaveBeenCalled();
      }
    }
    // A viewer hidden (the review's next item, rendered ahead) answers nothing.
    shown.hidden = true;
    for (const fn of Object.values(handlers)) fn.mockClear();
    await user.keyboard('h+0');
    expect(handlers.toggleOverlays).not.toHaveBeenCalled();
    expect(handlers.zoomIn).not.toHaveBeenCalled();
    expect(handlers.fit).not.toHaveBeenCalled();
    // Nor one rendered invisible beside the focused item (aria-hidden); the focused one answers
    // while still inert (the review lifts that a frame after the keypress that showed it).
    shown.hidden = false;
    shown.setAttribute('aria-hidden', 'true');
    await user.keyboard('h');
    expect(handlers.toggleOverlays).not.toHaveBeenCalled();
    shown.removeAttribute('aria-hidden');
    shown.inert = true;
    await user.keyboard('h');
    expect(handlers.toggleOverlays).toHaveBeenCalledTimes(1);
    shown.remove();
  });

  it('in the dispute dialog each announced number picks its code and Enter confirms; not the viewer’s 1, and not while typing the text', async () => {
    const reasons: ReasonCode[] = Array.from({ length: 11 }, (_, i) => ({ code: `code_${i + 1}`, label: `Reason ${i + 1}` }));
    const onSubmit = vi.fn();
    const viewer = { actualSize: vi.fn(), fit: vi.fn() } as unknown as ViewerKeyHandlers;
    const shown = document.createElement('section');
    document.body.append(shown);
    function Harness() {
      const [choice, setChoice] = useState<ReasonChoice>(NO_CHOICE);
      useViewerKeys(viewer, true, { current: shown });
      return <ReasonPicker reasons={reasons} value={choice} onChange={setChoice} onSubmit={onSubmit} autoFocus />;
    }
    render(<Harness />);
    const user = userEvent.setup();
    const picks = KEYMAP.pickReason.aria.split(' ');
    expect(picks).toHaveLength(9);
    for (const [index, key] of picks.entries()) {
      await user.keyboard(asUserEvent(key));
      const radio = screen.getByRole('radio', { name: `Reason ${index + 1} (code_${index + 1})` });
      expect(radio, key).toBeChecked();
      expect(radio).toHaveAttribute('aria-keyshortcuts', key);
    }
    // Past the ninth, codes have no key.
    expect(screen.getByRole('radio', { name: 'Reason 10 (code_10)' })).not.toHaveAttribute('aria-keyshortcuts');
    // The focus on the dialog's link: the number still picks, and the viewer does not show 100%.
    screen.getByRole('link', { name: 'Edit reasons' }).focus();
    await user.keyboard('1');
    expect(screen.getByRole('radio', { name: 'Reason 1 (code_1)' })).toBeChecked();
    expect(viewer.actualSize).not.toHaveBeenCalled();
    // The focus goes to the code picked (arrow keys go on from there).
    expect(screen.getByRole('radio', { name: 'Reason 1 (code_1)' })).toHaveFocus();
    // Enter on the link follows the link, it does not confirm; on a code it confirms.
    screen.getByRole('link', { name: 'Edit reasons' }).focus();
    await user.keyboard(asUserEvent(KEYMAP.confirmReason.aria));
    expect(onSubmit).not.toHaveBeenCalled();
    screen.getByRole('radio', { name: 'Reason 1 (code_1)' }).focus();
    await user.keyboard(asUserEvent(KEYMAP.confirmReason.aria));
    expect(onSubmit).toHaveBeenCalledTimes(1);

    // In the text, digits are text; Enter still confirms.
    await user.click(screen.getByRole('textbox', { name: /Reason text/ }));
    await user.keyboard('23');
    expect(screen.getByRole('textbox', { name: /Reason text/ })).toHaveValue('23');
    expect(screen.getByRole('radio', { name: 'Reason 1 (code_1)' })).toBeChecked();
    await user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(2);
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
