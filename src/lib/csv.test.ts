import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseCsv, toCsv } from './csv';

const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', '=', '+', '-', '@', '1', 'é', ';', '\t') });

/** What a reader of the file must see in a cell: the rule as documented, stated here rather than taken from the module. */
const expectedCell = (value: string) => (['=', '+', '-', '@', '\t', '\r'].includes(value.charAt(0)) ? `'${value}` : value);

describe('CSV', () => {
  it('reads back, with a plain CSV parser, the rows it was made from (formula cells neutralised)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { maxLength: 20 }), (tuples) => {
        const columns = ['first', 'second', 'third'];
        const rows = tuples.map(([a, b, c]) => ({ first: a, second: b, third: c }));
        // papaparse's reader with its defaults, not the module's parseCsv: the witness is independent of the writer.
        const parsed = Papa.parse<string[]>(toCsv(columns, rows)).data;
        expect(parsed).toEqual([columns, ...tuples.map((tuple) => tuple.map(expectedCell))]);
      }),
    );
  });

  it('writes the exact text: CRLF rows, formula cells neutralised, commas, quotes and newlines quoted', () => {
    const csv = toCsv(
      ['v'],
      [
        { v: '=HYPERLINK("http://x")' },
        { v: '+1' },
        { v: '-2' },
        { v: '@SUM(A1)' },
        { v: '\tx' },
        { v: 'a,b' },
        { v: 'say "hi"' },
        { v: 'two\nlines' },
        { v: 'é;' },
      ],
    );
    expect(csv).toBe(['v', '"\'=HYPERLINK(""http://x"")"', "'+1", "'-2", "'@SUM(A1)", "'\tx", '"a,b"', '"say ""hi"""', '"two\nlines"', 'é;'].join('\r\n'));
  });

  it('writes numbers and booleans plainly, null and missing as empty, objects as JSON', () => {
    expect(toCsv(['n', 'x', 'o', 'missing', 'b', 'neg'], [{ n: 0.0125, x: null, o: { a: 1 }, b: true, neg: -5 }])).toBe(
      'n,x,o,missing,b,neg\r\n0.0125,,"{""a"":1}",,true,-5',
    );
    expect(toCsv(['a'], [{ a: [1, 'x'] }])).toBe('a\r\n"[1,""x""]"');
  });

  it('writes the header alone when there are no rows', () => {
    expect(toCsv(['first', 'second'], [])).toBe('first,second');
  });

  it('parses quoted cells, doubled quotes, CRLF and empty cells', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n,\r\n"two\nlines",z\r\n\r\nlast')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['', ''],
      ['two\nlines', 'z'],
      // An empty line is a row of one empty cell, not skipped.
      [''],
      ['last'],
    ]);
  });
});
