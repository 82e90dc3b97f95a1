/*
 * A CSV cell made safe to open in a spreadsheet: pure, shared by the console's exports
 * (src/lib/csv.ts) and the hub's audit export (server/hub/routes/audit.ts).
 */

/**
 * Leading characters after which a spreadsheet may run a cell as a formula (OWASP's CSV injection
 * list: = + - @ tab CR), and those it strips or skips before it looks: every control, format and
 * separator character (space, NBSP, LF, BOM, zero-width space and joiners, bidi marks, tags,
 * lone surrogates, private-use and unassigned code points), combining marks, and blank letters.
 */
const FORMULA_OR_INVISIBLE = /^[=+\-@\p{C}\p{Z}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/u;
/** Look-alikes of - and +: every dash and minus sign, and the heavy plus and minus. */
const LOOKALIKE = /^[\p{Pd}\u2212\u2795\u2796]/u;
const risky = (text: string) => FORMULA_OR_INVISIBLE.test(text) || LOOKALIKE.test(text);

/**
 * A cell's text made safe to open in a spreadsheet: text that starts with a formula character, a
 * look-alike of one (fullwidth "＝", small "﹢", superscript "⁺": whatever NFKC folds into = + - @),
 * or a character a spreadsheet strips first, is led by an apostrophe, which shows the text as text.
 */
export function neutraliseCell(text: string): string {
  if (text === '') return text;
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return risky(first) || risky(first.normalize('NFKC')) ? `'${text}` : text;
}

/** A value as a cell: empty for null and missing, JSON for objects and arrays, text neutralised; numbers and booleans as they are. */
export function cellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return neutraliseCell(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One CSV line (RFC 4180, CRLF-terminated): every cell quoted, so no text can end a cell or start another. */
export const csvLine = (cells: readonly string[]): string => `${cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')}\r\n`;
