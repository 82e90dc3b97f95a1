import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { cellText, csvWriter, FIXED_COLUMNS, flattenContent, MAX_CONTENT_COLUMNS } from './csv-writer';
import type { ExportRecord } from './export-record';
import { collect, fixedSource, testManifest, triageRow } from './test-rows';

/** The file, parsed whole by a plain CSV reader into objects (its first line is the header: nothing is skipped). */
async function writeAndParse(records: ExportRecord[]) {
  const text = await collect(csvWriter.write(testManifest('csv', records.length), fixedSource(records)));
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { text, first: text.slice(0, text.indexOf('\r\n')), header: parsed.meta.fields ?? [], rows: parsed.data };
}

describe('CSV writer', () => {
  it('starts with the header row (the fixed columns, then the content columns), every cell quoted; no manifest inside', async () => {
    const { first, header, rows } = await writeAndParse([
      {
        row: triageRow({ itemId: '7', priceMicros: 12_500, kind: 'simulated', verticalId: 'v1' }, 'adopted', { decision: 'adopt' }, Date.UTC(2026, 0, 2)),
        record: { payload: { label: 'cat' } },
      },
    ]);
    expect(first).toBe([...FIXED_COLUMNS, 'content.label'].map((column) => `"${column}"`).join(','));
    expect(header).toEqual([...FIXED_COLUMNS, 'content.label']);
    expect(rows[0]).toMatchObject({
      item_id: '7',
      subscription_id: 'sub_live',
      kind: 'simulated',
      decision: 'adopt',
      state: 'adopted',
      decided_at: '2026-01-02T00:00:00.000Z',
      vertical_id: 'v1',
      quality_score: '0.75',
      unit_price_usd: '0.0125',
      received_at: '2026-11-01T12:00:00.000Z',
      'content.label': 'cat',
    });
  });

  it('names the task and the vertical beside their IDs, as the manifest names them; empty where the service named none', async () => {
    const rows = [triageRow({ itemId: '1', taskId: '1002' }), triageRow({ itemId: '2', taskId: '1003', verticalId: 'v1' })];
    const names = {
      tasks: new Map([['1002', { name: 'Road object outlines', frontierId: 'f1' }]]),
      frontiers: new Map<string, string>(),
      verticals: new Map([['v1', 'Retail shelves']]),
    };
    const manifest = testManifest('csv', rows.length, undefined, { items: rows.map((r) => r.item), names });
    const text = await collect(csvWriter.write(manifest, fixedSource(rows.map((row) => ({ row, record: {} })))));
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields?.slice(FIXED_COLUMNS.indexOf('task_id'), FIXED_COLUMNS.indexOf('task_id') + 2)).toEqual(['task_id', 'task_name']);
    expect(parsed.data.map((r) => [r.task_id, r.task_name, r.vertical_id, r.vertical_name])).toEqual([
      ['1002', 'Road object outlines', '', ''],
      ['1003', '', 'v1', 'Retail shelves'],
    ]);
  });

  it('has a reason_code column beside the reason: the code it starts with, "other", or empty', async () => {
    const { header, rows } = await writeAndParse([
      { row: triageRow({ itemId: '1' }, 'disputed', { decision: 'dispute', reason: 'missing_object: tail, not boxed' }, 1), record: { data: {} } },
      { row: triageRow({ itemId: '2', seq: 2 }, 'disputed', { decision: 'dispute', reason: 'wrong_label' }, 1), record: { data: {} } },
      { row: triageRow({ itemId: '3', seq: 3 }, 'disputed', { decision: 'dispute', reason: 'blurry' }, 1), record: { data: {} } },
      { row: triageRow({ itemId: '4', seq: 4 }, 'disputed', { decision: 'dispute' }, 1), record: { data: {} } },
    ]);
    expect(header.indexOf('reason_code')).toBe(header.indexOf('reason') + 1);
    expect(rows.map((r) => [r.item_id, r.reason, r.reason_code])).toEqual([
      ['1', 'missing_object: tail, not boxed', 'missing_object'],
      ['2', 'wrong_label', 'wrong_label'],
      ['3', 'blurry', 'other'],
      ['4', '', ''],
    ]);
  });

  it('flattens content to dotted paths up to depth 3, deeper parts and arrays as JSON text', () => {
    const flat = flattenContent({
      text: 'hi',
      receipt: { merchant: { name: 'Corner', address: { city: 'Lisbon' } }, lines: [{ sku: 'A' }], totals: {} },
    });
    expect(Object.fromEntries(flat)).toEqual({
      'content.text': 'hi',
      'content.receipt.merchant.name': 'Corner',
      'content.receipt.merchant.address': { city: 'Lisbon' },
      'content.receipt.lines': [{ sku: 'A' }],
      'content.receipt.totals': {},
    });
    expect(Object.fromEntries(flattenContent('plain'))).toEqual({ content: 'plain' });
    expect(cellText({ city: 'Lisbon' })).toBe('{"city":"Lisbon"}');
  });

  it('takes the header from every row (first-seen order) and leaves cells empty where a row lacks a column', async () => {
    const { header, rows } = await writeAndParse([
      { row: triageRow({ itemId: '1' }), record: { data: { a: 1, deep: { b: { c: { d: 1 } } } } } },
      { row: triageRow({ itemId: '2', seq: 2 }), record: { data: { z: true } } },
    ]);
    expect(header.slice(FIXED_COLUMNS.length)).toEqual(['content.a', 'content.deep.b.c', 'content.z']);
    expect(rows[0]).toMatchObject({ 'content.a': '1', 'content.deep.b.c': '{"d":1}', 'content.z': '' });
    expect(rows[1]).toMatchObject({ 'content.a': '', 'content.z': 'true' });
  });

  it('neutralises formulas and quotes commas, quotes and line breaks', async () => {
    const hostile = {
      f1: '=HYPERLINK("http://evil","x")',
      f2: '+1',
      f3: '-2+3',
      f4: '@SUM(A1)',
      f5: '\tTAB',
      f6: '\rCR',
      ok: 'a, "b"\nc',
      n: -5,
      space: ' =1+1',
      nbsp: '\u00A0=1+1',
      lf: '\n=1+1',
      bom: '\uFEFF=1+1',
      zwsp: '\u200B=1+1',
      zwj: '\u200D=1+1',
      fullwidth: '\uFF1D1+1',
      fullplus: '\uFF0B1',
      comma: 'n3,=2+5,',
    };
    const { rows, text } = await writeAndParse([{ row: triageRow({}, 'disputed', { decision: 'dispute', reason: '=1+1' }, 1), record: { data: hostile } }]);
    expect(rows[0]).toMatchObject({
      reason: "'=1+1",
      reason_code: 'other',
      'content.f1': `'=HYPERLINK("http://evil","x")`,
      'content.f2': "'+1",
      'content.f3': "'-2+3",
      'content.f4': "'@SUM(A1)",
      'content.f5': "'\tTAB",
      'content.f6': "'\rCR",
      'content.ok': 'a, "b"\nc',
      'content.space': "' =1+1",
      'content.nbsp': "'\u00A0=1+1",
      'content.lf': "'\n=1+1",
      'content.bom': "'\uFEFF=1+1",
      'content.zwsp': "'\u200B=1+1",
      'content.zwj': "'\u200D=1+1",
      'content.fullwidth': "'\uFF1D1+1",
      'content.fullplus': "'\uFF0B1",
      // Text with commas stays one quoted cell: no `=2+5` cell can appear.
      'content.comma': 'n3,=2+5,',
      // A number is a value, never a formula: it stays a number.
      'content.n': '-5',
    });
    expect(text).toContain('"a, ""b""\nc"');
    expect(text).toContain('"n3,=2+5,"');
    expect(Papa.parse<string[]>(text).data.flat()).not.toContain('=2+5');
  });

  it('caps the content columns and keeps the rest, as JSON, in content._more', async () => {
    const wide = Object.fromEntries(Array.from({ length: MAX_CONTENT_COLUMNS + 2 }, (_, i) => [`k${i}`, i]));
    const { header, rows } = await writeAndParse([{ row: triageRow(), record: { data: wide } }]);
    expect(header).toHaveLength(FIXED_COLUMNS.length + MAX_CONTENT_COLUMNS + 1);
    expect(header.at(-1)).toBe('content._more');
    expect(JSON.parse(rows[0]!['content._more']!)).toEqual({
      [`content.k${MAX_CONTENT_COLUMNS}`]: MAX_CONTENT_COLUMNS,
      [`content.k${MAX_CONTENT_COLUMNS + 1}`]: MAX_CONTENT_COLUMNS + 1,
    });
  });
});
