import { MAX_KEYED } from './model';

/**
 * The dispute dialog's shortcuts: part of the review's one keymap (src/features/review/keymap.ts
 * spreads them into KEYMAP, so the "?" dialog lists them and its test checks them). They live
 * here because this feature binds them and may not import the review feature (which renders it).
 *
 * Digits must stay typeable in the free-text field, so 1–9 pick a code only while the focus is
 * not in that field; the dialog opens with the focus on the choice, so `d` then `2` picks the
 * second code at once, and Tab reaches the text.
 */
export interface DisputeKeyBinding {
  hotkeys: string | null;
  label: string;
  aria: string;
  scope: 'dispute';
  description: string;
}

const DIGITS = Array.from({ length: MAX_KEYED }, (_, i) => String(i + 1));

export const DISPUTE_KEYMAP = {
  pickReason: {
    hotkeys: DIGITS.join(', '),
    label: `1 – ${MAX_KEYED}`,
    aria: DIGITS.join(' '),
    scope: 'dispute',
    description: 'pick that reason code (not while typing the reason’s text)',
  },
  confirmReason: {
    hotkeys: 'enter',
    label: 'Enter',
    aria: 'Enter',
    scope: 'dispute',
    description: 'confirm the dispute with the chosen code and text',
  },
} as const satisfies Record<string, DisputeKeyBinding>;

/** The reason at a number key's place (0-based), or null for any other key. */
export function reasonIndexOfKey(key: string): number | null {
  const at = DISPUTE_KEYMAP.pickReason.aria.split(' ').indexOf(key);
  return at < 0 ? null : at;
}

/** The `aria-keyshortcuts` of the code at a place, when it has a number key. */
export const reasonAria = (index: number): string | undefined => DISPUTE_KEYMAP.pickReason.aria.split(' ')[index];
