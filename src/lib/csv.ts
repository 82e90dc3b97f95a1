import Papa from 'papaparse';

// The cell rules are the contract's, so the hub's audit export writes the same cells.
export { cellOf, neutraliseCell } from '../api/contract/csv-cell';
import { cellOf } from '../api/contract/csv-cell';

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
