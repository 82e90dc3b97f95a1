import { useCallback, useEffect, useRef, useState } from 'react';
import type { TriageRow } from '../../domain/triage';
import { cocoWriter } from './coco-writer';
import { csvWriter } from './csv-writer';
import { jsonlWriter } from './jsonl-writer';
import { completedManifest, manifestFileName, type ExportFormat, type ExportManifest } from './manifest';
import { storeSource } from './read-records';
import { runExport, type ExportProgress } from './run-export';
import { downloadManifest, type ExportSink } from './sinks';
import type { ExportWriter, WriteSummary } from './writer';

const WRITERS: Record<ExportFormat, ExportWriter> = { jsonl: jsonlWriter, csv: csvWriter, coco: cocoWriter };

export type ExportPhase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress; format: ExportFormat }
  | {
      kind: 'saved';
      summary: WriteSummary;
      fileName: string;
      via: ExportSink['via'];
      /** The manifest beside the file: its name and text (downloaded with a downloaded file, saved from the dialog otherwise). */
      manifest: { fileName: string; text: string };
    }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

/** One export at a time: its phase, a way to start one and a way to cancel it. */
export function useExportRun() {
  const [phase, setPhase] = useState<ExportPhase>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  // Leaving the page cancels an export in flight (nothing half-written is kept).
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (input: { rows: readonly TriageRow[]; format: ExportFormat; manifest: ExportManifest; sink: ExportSink; fileName: string }) => {
      const abort = new AbortController();
      controller.current = abort;
      const { rows, format, manifest, sink, fileName } = input;
      const writer = WRITERS[format];
      setPhase({ kind: 'running', format, progress: { done: 0, total: rows.length, pass: 1, passes: writer.passes } });
      try {
        const result = await runExport({
          writer,
          manifest,
          source: storeSource(rows),
          total: rows.length,
          sink,
          signal: abort.signal,
          onProgress: (progress) => setPhase({ kind: 'running', format, progress }),
        });
        if (result.status === 'cancelled') {
          setPhase({ kind: 'cancelled' });
          return;
        }
        const { status: _saved, bytes: _bytes, ...summary } = result;
        const beside = { fileName: manifestFileName(fileName), text: `${JSON.stringify(completedManifest(manifest, fileName, summary), null, 2)}\n` };
        // A downloaded file gets its manifest downloaded beside it; a file the user picked, from the dialog's button (a picker needs a click).
        if (sink.via === 'download') downloadManifest(beside.text, beside.fileName);
        setPhase({ kind: 'saved', summary, fileName, via: sink.via, manifest: beside });
      } catch (error) {
        setPhase({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setPhase({ kind: 'idle' }), []);
  const fail = useCallback((error: unknown) => setPhase({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }), []);
  return { phase, start, cancel, reset, fail };
}
