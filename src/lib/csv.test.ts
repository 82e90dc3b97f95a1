import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { neutraliseCell, parseCsv, toCsv } from './csv';

/** Every leading character a cell must not keep first (issue 23.4: OWASP's list, what a spreadsheet strips first, and look-alikes). */
const RISKY_LEADS: [string, string][] = [
  ['equals', '='],
  ['plus', '+'],
  ['minus', '-'],
  ['at', '@'],
  ['tab', '\t'],
  ['carriage return', '\r'],
  ['line feed', '\n'],
  ['space', ' '],
  ['no-break space', '\u00A0'],
  ['byte order mark', '\uFEFF'],
  ['zero-width space', '\u200B'],
  ['zero-width non-joiner', '\u200C'],
  ['zero-width joiner', '\u200D'],
  ['word joiner', '\u2060'],
  ['left-to-right mark', '\u200E'],
  ['right-to-left override', '\u202E'],
  ['soft hyphen', '\u00AD'],
  ['ideographic space', '\u3000'],
  ['line separator', '\u2028'],
  ['NUL', '\u0000'],
  ['variation selector', '\uFE0F'],
  ['combining mark', '\u0301'],
  ['Hangul filler', '\u3164'],
  ['braille blank', '\u2800'],
  ['tag space', '\u{E0020}'],
  ['fullwidth equals', '\uFF1D'],
  ['fullwidth plus', '\uFF0B'],
  ['fullwidth minus', '\uFF0D'],
  ['fullwidth at', '\uFF20'],
  ['small equals', '\uFE66'],
  ['small plus', '\uFE62'],
  ['small minus', '\uFE63'],
  ['small at', '\uFE6B'],
  ['superscript plus', '\u207A'],
  ['superscript equals', '\u207C'],
  ['superscript minus', '\u207B'],
  ['subscript plus', '\u208A'],
  ['minus sign', '\u2212'],
  ['en dash', '\u2013'],
  ['hyphen', '\u2010'],
  ['heavy plus', '\u2795'],
];

const cell = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r\n', ' ', '=', '+', '-', '@', '1', 'é', ';', '\t', '\uFF1D', '\u200B') });

/** What a reader of the file must see in a cell: the rule as documented, stated here rather than taken from the module. */
const expectedCell = (value: string) => (RISKY_LEADS.some(([, lead]) => value.startsWith(lead)) ? `'${value}` : value);

describe('CSV', () => {
  it.each(RISKY_LEADS)('neutralises a cell led by %s', (_name, lead) => {
    for (const text of [`${lead}=2+5`, `${lead}HYPERLINK("http://x")`, lead]) {
      const parsed = Papa.parse<string[]>(toCsv(['v'], [{ v: text }])).data;
      expect(parsed[1]).toEqual([`'${text}`]);
    }
  });

  it('leaves text that starts with a letter, digit, quote or bracket as it is', () => {
    for (const text of ['cat', '5', 'é', '"quoted"', '{"a":1}', "'already", 'a=b', '(1)', '#tag', '']) expect(neutraliseCell(text)).toBe(text);
  });

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

  it('writes the exact text: CRLF rows, every cell quoted, formula cells neutralised', () => {
    const values = ['=HYPERLINK("http://x")', '+1', '-2', '@SUM(A1)', '\tx', 'a,b', 'say "hi"', 'two\nlines', 'é;', 'n3,=2+5,'];
    const lines = [
      '"v"',
      `"'=HYPERLINK(""http://x"")"`,
      `"'+1"`,
      `"'-2"`,
      `"'@SUM(A1)"`,
      `"'\tx"`,
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"é;"',
      '"n3,=2+5,"',
    ];
    expect(
      toCsv(
        ['v'],
        values.map((v) => ({ v })),
      ),
    ).toBe(lines.join('\r\n'));
  });

  it('writes numbers and booleans plainly, null and missing as empty, objects as JSON', () => {
    expect(toCsv(['n', 'x', 'o', 'missing', 'b', 'neg'], [{ n: 0.0125, x: null, o: { a: 1 }, b: true, neg: -5 }])).toBe(
      '"n","x","o","missing","b","neg"\r\n"0.0125","","{""a"":1}","","true","-5"',
    );
    expect(toCsv(['a'], [{ a: [1, 'x'] }])).toBe('"a"\r\n"[1,""x""]"');
  });

  it('writes the header alone when there are no rows', () => {
    expect(toCsv(['first', 'second'], [])).toBe('"first","second"');
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
