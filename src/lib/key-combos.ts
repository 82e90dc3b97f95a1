/**
 * Keyboard shortcuts matched against combinations parsed once, in react-hotkeys-hook's notation
 * ("j", "down", "shift+a", "ctrl+z") and by its rules: a key is named by its physical code
 * ("KeyJ" → "j", "ArrowDown" → "arrowdown"), and the modifiers held must be exactly the
 * combination's. The library parses every combination again on each keydown, a third of a
 * millisecond of each review keypress before its paint; here a key is one map lookup.
 */

const ALIASES: Record<string, string> = { esc: 'escape', return: 'enter', left: 'arrowleft', right: 'arrowright', up: 'arrowup', down: 'arrowdown' };
const MODIFIERS = ['alt', 'ctrl', 'meta', 'shift'] as const;

/** A key's name as the combinations write it: "KeyH" → "h", "Digit0" → "0", "ArrowLeft" → "arrowleft", "down" → "arrowdown". */
export const keyName = (code: string) => (ALIASES[code.trim()] ?? code.trim()).toLowerCase().replace(/key|digit|numpad/, '');

/** One combination in a canonical form: the modifiers in one order, then the key. */
function canonical(modifiers: ReadonlySet<string>, key: string): string {
  return [...MODIFIERS.filter((m) => modifiers.has(m)), key].join('+');
}

/** Where a typed key is the field's, not a shortcut (react-hotkeys-hook's list of tags and roles). */
const FORM_TAGS_AND_ROLES = new Set([
  'input',
  'textarea',
  'select',
  'searchbox',
  'slider',
  'spinbutton',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'textbox',
]);

/** Whether a key event was typed into a field (or editable content): shortcuts leave it alone. */
export function typedInField(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  // A field hidden while it has the focus (the reason picker a dispute's Enter closed, until the
  // render after that paint) is typed in by no one: the key is the page's.
  if (target?.closest?.('[hidden]')) return false;
  return !!target && (target.isContentEditable || FORM_TAGS_AND_ROLES.has(target.tagName?.toLowerCase()) || FORM_TAGS_AND_ROLES.has(target.role ?? ''));
}

/**
 * A matcher for `bindings` (combinations, comma-separated, to what each does): the action of a
 * keydown, or undefined. AltGr (a character on many layouts) matches only combinations naming Alt or Ctrl.
 */
export function comboMatcher<A>(bindings: Iterable<readonly [string, A]>): (event: KeyboardEvent) => A | undefined {
  const byCombo = new Map<string, A>();
  const withAltOrCtrl = new Set<string>();
  for (const [combos, action] of bindings) {
    for (const combo of combos.split(',')) {
      const parts = combo.trim().toLowerCase().split('+').map(keyName);
      const modifiers = new Set(parts.map((p) => (p === 'control' ? 'ctrl' : p)).filter((p) => (MODIFIERS as readonly string[]).includes(p)));
      const key = parts.filter((p) => !(MODIFIERS as readonly string[]).includes(p) && p !== 'control').join('+');
      const name = canonical(modifiers, key);
      byCombo.set(name, action);
      if (modifiers.has('alt') || modifiers.has('ctrl')) withAltOrCtrl.add(name);
    }
  }
  return (event) => {
    if (!event.code) return undefined;
    const held = new Set<string>();
    if (event.altKey) held.add('alt');
    if (event.ctrlKey) held.add('ctrl');
    if (event.metaKey) held.add('meta');
    if (event.shiftKey) held.add('shift');
    const name = canonical(held, keyName(event.code));
    if (event.getModifierState?.('AltGraph') && !withAltOrCtrl.has(name)) return undefined;
    return byCombo.get(name);
  };
}
