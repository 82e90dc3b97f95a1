import Papa from 'papaparse';

/**
 * CSV export with papaparse. Cells that a spreadsheet would run as a formula (starting with
 * =, +, -, @, tab or carriage return) are neutralised with a leading apostrophe.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function neutralise(value: unknown): unknown {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const data = rows.map((row) =>
    columns.map((column) => {
      const value = row[column];
      const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : value;
      return neutralise(text);
    }),
  );
  const header = Papa.unparse([[...columns]], { newline: '\r\n' });
  return data.length === 0 ? header : `${header}\r\n${Papa.unparse(data, { newline: '\r\n' })}`;
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
