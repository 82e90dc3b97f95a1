import { liveDisputeBodySchema } from '../../api/contract';
import { z } from '../../api/contract/zod';
import { redactSecrets } from '../../lib/redact';

/**
 * Dispute reason codes: an organization's list of short snake_case ids with a label, picked by
 * number in the dispute dialog and sent as the dispute's `reason`, code first
 * (`missing_object: tail not boxed`). Pure functions: the store and the UI build on them.
 */
export interface ReasonCode {
  /** What is sent and exported: lower-case snake_case, stable once created. */
  code: string;
  /** What the dialog shows; may be renamed freely. */
  label: string;
}

/** Only the first nine have a number key (1–9); the others are picked by click or arrow keys. */
export const MAX_KEYED = 9;
export const MAX_CODES = 30;
export const MAX_CODE_CHARS = 32;
export const MAX_LABEL_CHARS = 60;

/** A reason that names no known code ("other") and a dispute without one ("no reason"): never codes. */
export const OTHER = 'other';
export const NO_REASON = 'no_reason';
const RESERVED = new Set([OTHER, NO_REASON]);

/** The contract's bound on a live dispute's reason (spec 4.9; 2000 characters), read from the schema itself. */
export const MAX_REASON_CHARS: number = liveDisputeBodySchema.shape.reason.unwrap().maxLength ?? 2000;

const CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

export const DEFAULT_REASONS: readonly ReasonCode[] = [
  { code: 'wrong_label', label: 'Wrong label' },
  { code: 'missing_object', label: 'Missing object' },
  { code: 'box_too_loose', label: 'Box too loose' },
  { code: 'duplicate', label: 'Duplicate' },
  { code: 'unreadable', label: 'Unreadable' },
  { code: 'off_topic', label: 'Off-topic' },
  // Blurry images, truncated text, noisy audio: the content itself is unusable, whatever its labels.
  { code: 'low_quality', label: 'Low quality' },
];

/** Why a code cannot be used, or null when it can (given the codes already in the list). */
export function codeError(code: string, taken: readonly string[] = []): string | null {
  if (code === '') return 'Enter a code.';
  if (code.length > MAX_CODE_CHARS) return `A code has at most ${MAX_CODE_CHARS} characters.`;
  if (!CODE_PATTERN.test(code)) return 'A code is lower-case letters, digits and _ (snake_case), starting with a letter.';
  if (RESERVED.has(code)) return `“${code}” is reserved (statistics and exports use it).`;
  if (taken.includes(code)) return `“${code}” is already in the list.`;
  return null;
}

export function labelError(label: string): string | null {
  const trimmed = label.trim();
  if (trimmed === '') return 'Enter a label.';
  if (trimmed.length > MAX_LABEL_CHARS) return `A label has at most ${MAX_LABEL_CHARS} characters.`;
  return null;
}

const reasonCodeSchema = z.object({
  code: z.string().refine((code) => codeError(code) === null),
  label: z.string().refine((label) => labelError(label) === null),
});

/** A stored list as it must be: 1 to MAX_CODES codes, each valid, none twice. */
const reasonListSchema = z
  .array(reasonCodeSchema)
  .min(1)
  .max(MAX_CODES)
  .refine((list) => new Set(list.map((r) => r.code)).size === list.length);

/** A stored document checked: a damaged or foreign one gives null (the caller falls back to the defaults). */
export function parseReasonList(value: unknown): ReasonCode[] | null {
  const parsed = reasonListSchema.safeParse(value);
  return parsed.success ? parsed.data.map(({ code, label }) => ({ code, label: label.trim() })) : null;
}

/** "Box too loose" → "box_too_loose": a suggestion for a new code from its label. */
export function codeFromLabel(label: string): string {
  const code = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[_0-9]+|_+$/g, '')
    .slice(0, MAX_CODE_CHARS)
    .replace(/_+$/, '');
  return code;
}

/**
 * The dispute's wire `reason`, code first: `code: text`, `code` alone, or the text alone (no code
 * chosen). Text is trimmed and its whitespace runs kept as typed; the whole stays within the
 * contract's limit (the text is cut, never the code). Empty when there is nothing to say.
 */
export function formatReason(code: string | null, text: string, max = MAX_REASON_CHARS): string {
  // A key or JWT pasted by mistake would go to the service, the outbox and every export: never.
  const free = redactSecrets(text).trim();
  if (!code) return cutTo(free, max);
  if (free === '') return cutTo(code, max);
  const head = `${code}: `;
  return head.length >= max ? cutTo(code, max) : head + cutTo(free, max - head.length).trimEnd();
}

/** Cut to at most `max` UTF-16 units without splitting a surrogate pair (the service counts the same units). */
function cutTo(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

export interface ParsedReason {
  /** A known code, OTHER (text naming none), or NO_REASON (no reason at all). */
  code: string;
  /** The free text after the code (or the whole reason for OTHER). */
  text: string;
}

/**
 * A stored or sent reason back into its code and text. It starts with a known code when it is
 * the code alone or the code followed by ":" (so `box` never matches `box_too_loose: …`).
 */
export function parseReason(reason: string | null | undefined, codes: readonly string[]): ParsedReason {
  const whole = (reason ?? '').trim();
  if (whole === '') return { code: NO_REASON, text: '' };
  const colon = whole.indexOf(':');
  const head = colon < 0 ? whole : whole.slice(0, colon);
  if (codes.includes(head)) return { code: head, text: colon < 0 ? '' : whole.slice(colon + 1).trim() };
  return { code: OTHER, text: whole };
}

// Editing: each returns a new list, or the same one when the change does not apply.

export function addReason(list: readonly ReasonCode[], reason: ReasonCode): ReasonCode[] {
  if (list.length >= MAX_CODES) return [...list];
  if (
    codeError(
      reason.code,
      list.map((r) => r.code),
    ) ||
    labelError(reason.label)
  )
    return [...list];
  return [...list, { code: reason.code, label: reason.label.trim() }];
}

export function renameReason(list: readonly ReasonCode[], code: string, label: string): ReasonCode[] {
  if (labelError(label)) return [...list];
  return list.map((r) => (r.code === code ? { ...r, label: label.trim() } : r));
}

/** Moves a code by `by` places (−1: up, +1: down), within the list. */
export function moveReason(list: readonly ReasonCode[], code: string, by: number): ReasonCode[] {
  const from = list.findIndex((r) => r.code === code);
  const to = from + by;
  if (from < 0 || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** Removes a code; the last one stays (an empty list would leave the dialog without choices). */
export function removeReason(list: readonly ReasonCode[], code: string): ReasonCode[] {
  if (list.length <= 1) return [...list];
  return list.filter((r) => r.code !== code);
}
