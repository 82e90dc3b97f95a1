import type { ExportRecord, RecordSource } from './export-record';
import type { ExportManifest } from './manifest';
import type { ExportSink } from './sinks';
import type { ExportWriter, WriteSummary } from './writer';

export interface ExportProgress {
  /** Items read in the current pass. */
  done: number;
  total: number;
  /** 1-based; CSV and COCO read the selection twice. */
  pass: number;
  passes: number;
}

export interface RunExportOptions {
  writer: ExportWriter;
  manifest: ExportManifest;
  source: RecordSource;
  /** Items in the selection (for progress). */
  total: number;
  sink: ExportSink;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /** Text gathered before one write (characters). */
  chunkChars?: number;
}

export type RunExportResult = ({ status: 'saved'; bytes: number } & WriteSummary) | { status: 'cancelled' };

const CHUNK_CHARS = 1 << 20;
/** Progress is told every this many items (and at each pass's end): not 100,000 renders. */
const PROGRESS_EVERY = 500;

class Cancelled extends Error {}

/**
 * Streams one export: pulls the writer's chunks, gathers them to about a megabyte, writes each to
 * the sink before reading on (so memory holds one chunk and one batch of page rows), tells the
 * progress, and stops at the next item when the signal aborts, discarding what was written.
 */
export async function runExport(options: RunExportOptions): Promise<RunExportResult> {
  const { writer, manifest, source, total, sink, signal, onProgress, chunkChars = CHUNK_CHARS } = options;
  let pass = 0;
  const counted: RecordSource = () => {
    const current = ++pass;
    return (async function* (): AsyncGenerator<ExportRecord, void, undefined> {
      let done = 0;
      for await (const record of source()) {
        if (signal?.aborted) throw new Cancelled();
        yield record;
        if (++done % PROGRESS_EVERY === 0) onProgress?.({ done, total, pass: current, passes: writer.passes });
      }
      onProgress?.({ done, total, pass: current, passes: writer.passes });
    })();
  };
  const chunks = writer.write(manifest, counted);
  let pending: string[] = [];
  let pendingChars = 0;
  let bytes = 0;
  const encoder = new TextEncoder();
  // One write in flight while the next chunk is made: a file's write goes to another process.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (pendingChars === 0) return;
    const text = pending.join('');
    pending = [];
    pendingChars = 0;
    await writing;
    if (signal?.aborted) throw new Cancelled();
    // Counted as UTF-8, as the file holds it (a string's length counts UTF-16 units).
    bytes += encoder.encode(text).byteLength;
    writing = sink.write(text);
    // Its failure is seen at the next flush or at the end, not as an unhandled rejection meanwhile.
    writing.catch(() => undefined);
  };
  try {
    onProgress?.({ done: 0, total, pass: 1, passes: writer.passes });
    let step = await chunks.next();
    while (!step.done) {
      pending.push(step.value);
      pendingChars += step.value.length;
      if (pendingChars >= chunkChars) await flush();
      step = await chunks.next();
    }
    await flush();
    await writing;
    if (signal?.aborted) throw new Cancelled();
    await sink.close();
    return { status: 'saved', bytes, ...step.value };
  } catch (error) {
    await writing.catch(() => undefined);
    await sink.abort().catch(() => undefined);
    if (error instanceof Cancelled) return { status: 'cancelled' };
    throw error;
  }
}
