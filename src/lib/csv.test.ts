import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralise, parseCsv, toCsv } from './csv';

const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', '=', '+', '-', '@', '1', 'é', ';', '\t') });

describe('CSV', () => {
  it('parses back to the rows it was made from (formula cells neutralised)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { maxLength: 20 }), (tuples) => {
        const columns = ['first', 'second', 'third'];
        const rows = tuples.map(([a, b, c]) => ({ first: a, second: b, third: c }));
        const parsed = parseCsv(toCsv(columns, rows));
        expect(parsed[0]).toEqual(columns);
        expect(parsed.slice(1)).toEqual(rows.map((r) => columns.map((c) => neutralise(r[c as keyof typeof r]))));
      }),
    );
  });

  it('neutralises formula injection and quotes commas, quotes and newlines', () => {
    const csv = toCsv(['v'], [{ v: '=HYPERLINK("http://x")' }, { v: '+1' }, { v: '-2' }, { v: '@SUM(A1)' }, { v: 'a,b' }, { v: 'say "hi"' }, { v: 'two\nlines' }]);
    const values = parseCsv(csv).slice(1).map((r) => r[0]);
    expect(values).toEqual(["'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", 'a,b', 'say "hi"', 'two\nlines']);
    expect(csv).toContain('"a,b"');
    expect(csv).toContain('"say ""hi"""');
  });

  it('writes numbers and nulls plainly, objects as JSON', () => {
    const parsed = parseCsv(toCsv(['n', 'x', 'o'], [{ n: 0.0125, x: null, o: { a: 1 } }]));
    expect(parsed[1]).toEqual(['0.0125', '', '{"a":1}']);
  });
});
