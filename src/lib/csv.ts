import Papa from 'papaparse';

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

/**
 * Rows as CSV lines (RFC 4180, CRLF between rows, none after the last): every cell quoted, so no
 * text, whatever it holds, can end a cell or start another.
 */
export const csvLines = (rows: readonly (readonly string[])[]): string => Papa.unparse(rows as string[][], { quotes: true, newline: '\r\n' });

/** A whole CSV file: the header row first, then one row per record. Cells as `cellOf` makes them. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return csvLines([columns.map(cellOf), ...rows.map((row) => columns.map((column) => cellOf(row[column])))]);
}

export function parseCsv(text: string): string[][] {
  return Papa.parse<string[]>(text, { skipEmptyLines: false }).data;
}

/** Offers a file to the user without a server round-trip. */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
