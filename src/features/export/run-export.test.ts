import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleDb, saveDelivered, summaryOfLive } from '../../domain/store';
import { loadSubscriptionItems, toTriageRows } from '../../domain/triage';
import { jsonlWriter } from './jsonl-writer';
import { csvWriter } from './csv-writer';
import { readRecords, storeSource } from './read-records';
import { runExport, type ExportProgress } from './run-export';
import { blobSink, chooseSink, type ExportSink } from './sinks';
import { testManifest, triageRow } from './test-rows';
import { setDatabaseForTests } from '../../domain/store';

const submission = (n: number) => ({
  submission_id: String(n),
  task_id: '1002',
  frontier_id: '101',
  data: { text: `item ${n}`, n },
  quality_score: 0.5,
  quality_grade: 'B',
  source: 'web',
  created_at: '2026-11-01T10:00:00',
  consumer_feedback: null,
});

let db: ConsoleDb;
let name = 0;
beforeEach(() => {
  db = new ConsoleDb(`export-test-${++name}`);
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

/** `pages` pages of `size` items, written as pulls write them. */
async function fill(pages: number, size: number) {
  for (let p = 0; p < pages; p++) {
    const page = Array.from({ length: size }, (_, i) => submission(p * size + i + 1)).map((s) => ({ summary: summaryOfLive(s), record: s }));
    await saveDelivered(db, 'S', 'sub', 'incremental', page, 1_000 + p);
  }
  return toTriageRows(await loadSubscriptionItems('S', 'sub'), []);
}

/** A writable that keeps what it is given. */
function fakeSink(onWrite?: (chunk: string, index: number) => void) {
  const chunks: string[] = [];
  const calls: string[] = [];
  const sink: ExportSink = {
    via: 'file',
    write: async (chunk) => {
      calls.push('write');
      chunks.push(chunk);
      onWrite?.(chunk, chunks.length - 1);
    },
    close: async () => void calls.push('close'),
    abort: async () => void calls.push('abort'),
  };
  return { sink, chunks, calls };
}

describe('reading records from the store', () => {
  it('reads every record exactly as delivered, in delivery order, whatever the rows’ order, a few page rows per read', async () => {
    const rows = await fill(25, 20);
    const bulkGet = vi.spyOn(db.pages, 'bulkGet');
    const shuffled = [...rows].reverse();
    const read: unknown[] = [];
    for await (const { row, record } of readRecords(shuffled, db)) read.push([row.item.itemId, record]);
    expect(read).toEqual(rows.map((row, i) => [row.item.itemId, submission(i + 1)]));
    // 25 page rows, at most 10 per read: 3 reads, not one per item.
    expect(bulkGet).toHaveBeenCalledTimes(3);
  });

  it('gives null for a record the store lost', async () => {
    const rows = await fill(1, 3);
    const lost = { ...rows[1]!, item: { ...rows[1]!.item, page: 9_999 } };
    const read: unknown[] = [];
    for await (const { record } of readRecords([rows[0]!, lost, rows[2]!], db)) read.push(record);
    expect(read).toEqual([submission(1), null, submission(3)]);
  });
});

describe('runExport', () => {
  it('streams JSONL from the store into the sink in chunks, tells progress and closes the file', async () => {
    const rows = await fill(5, 40);
    const { sink, chunks, calls } = fakeSink();
    const progress: ExportProgress[] = [];
    const result = await runExport({
      writer: jsonlWriter,
      manifest: testManifest('jsonl', rows.length),
      source: storeSource(rows),
      total: rows.length,
      sink,
      chunkChars: 2_000,
      onProgress: (p) => progress.push(p),
    });
    const text = chunks.join('');
    expect(result).toEqual({ status: 'saved', written: 200, leftOut: 0, bytes: new TextEncoder().encode(text).byteLength });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.slice(0, -1).every((c) => c.length >= 2_000)).toBe(true);
    expect(calls.at(-1)).toBe('close');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { record?: unknown });
    expect(lines).toHaveLength(201);
    expect(lines.slice(1).map((line) => line.record)).toEqual(rows.map((_, i) => submission(i + 1)));
    expect(progress.at(-1)).toEqual({ done: 200, total: 200, pass: 1, passes: 1 });
  });

  it('reads twice for CSV and tells both passes', async () => {
    const rows = await fill(2, 10);
    const { sink, chunks } = fakeSink();
    const passes = new Set<number>();
    await runExport({
      writer: csvWriter,
      manifest: testManifest('csv', 20),
      source: storeSource(rows),
      total: 20,
      sink,
      onProgress: (p) => passes.add(p.pass),
    });
    expect([...passes]).toEqual([1, 2]);
    // The header, then one row per item: the manifest is a file of its own.
    expect(chunks.join('').trimEnd().split('\r\n')).toHaveLength(21);
  });

  it('stops writing when cancelled, discards the file and never closes it', async () => {
    const rows = await fill(10, 50);
    const controller = new AbortController();
    const { sink, chunks, calls } = fakeSink((_, index) => index === 1 && controller.abort());
    const result = await runExport({
      writer: jsonlWriter,
      manifest: testManifest('jsonl', rows.length),
      source: storeSource(rows),
      total: rows.length,
      sink,
      signal: controller.signal,
      chunkChars: 1_000,
    });
    expect(result).toEqual({ status: 'cancelled' });
    expect(chunks).toHaveLength(2);
    expect(calls).toEqual(['write', 'write', 'abort']);
  });

  it('stops reading at the next item once cancelled, not at the end of a chunk', async () => {
    const controller = new AbortController();
    const { sink, calls } = fakeSink();
    let read = 0;
    const source = async function* () {
      for (let i = 0; i < 10_000; i++) {
        read++;
        yield { row: triageRow({ itemId: String(i), seq: i }), record: { n: i } };
      }
    };
    const result = await runExport({
      writer: jsonlWriter,
      manifest: testManifest('jsonl', 10_000),
      source,
      total: 10_000,
      sink,
      signal: controller.signal,
      chunkChars: Number.MAX_SAFE_INTEGER,
      onProgress: ({ done }) => done >= 500 && controller.abort(),
    });
    expect(result).toEqual({ status: 'cancelled' });
    expect(read).toBeLessThanOrEqual(501);
    expect(calls).toEqual(['abort']);
  });

  it('discards the file when the writer fails, and says why', async () => {
    const { sink, calls } = fakeSink();
    const failing = async function* () {
      yield* [];
      throw new Error('disk on fire');
    };
    await expect(runExport({ writer: jsonlWriter, manifest: testManifest('jsonl'), source: failing, total: 0, sink })).rejects.toThrow('disk on fire');
    expect(calls).toEqual(['abort']);
  });
});

describe('sinks', () => {
  it('without the File System Access API: chunks become one Blob, downloaded at the end', async () => {
    const download = vi.fn<(blob: Blob, fileName: string) => void>();
    const sink = blobSink('a.jsonl', 'application/x-ndjson', download);
    await sink.write('one\n');
    await sink.write('two\n');
    expect(download).not.toHaveBeenCalled();
    await sink.close();
    const [blob, fileName] = download.mock.calls[0]!;
    expect(fileName).toBe('a.jsonl');
    expect(await blob.text()).toBe('one\ntwo\n');
    expect(blob.type).toBe('application/x-ndjson');
  });

  it('with showSaveFilePicker: writes to the chosen file; a closed picker is no export', async () => {
    const written: string[] = [];
    const writable = { write: vi.fn(async (c: string) => void written.push(c)), close: vi.fn(async () => undefined), abort: vi.fn(async () => undefined) };
    const handle = { createWritable: async () => writable } as unknown as FileSystemFileHandle;
    const picker = vi.fn(async () => handle);
    const sink = await chooseSink('x.csv', 'csv', { showSaveFilePicker: picker } as unknown as Window);
    expect(picker).toHaveBeenCalledWith(expect.objectContaining({ suggestedName: 'x.csv' }));
    expect(sink?.via).toBe('file');
    await sink!.write('a,b\r\n');
    await sink!.close();
    expect(written).toEqual(['a,b\r\n']);
    expect(writable.close).toHaveBeenCalled();

    const closed = vi.fn(async () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')));
    expect(await chooseSink('x.csv', 'csv', { showSaveFilePicker: closed } as unknown as Window)).toBeNull();
    expect((await chooseSink('x.csv', 'csv', {} as Window))?.via).toBe('download');
  });
});
