import type { ExportManifest } from './manifest';
import type { RecordSource } from './export-record';

/** What a writer reports once its file is complete. */
export interface WriteSummary {
  /** Items written to the file. */
  written: number;
  /** Items selected but not written (COCO: no image with boxes, polygons or point lists). */
  leftOut: number;
}

/**
 * A file format: text chunks from the manifest and the records, pulled by the runner one at a time
 * (so nothing is produced faster than it is written). `passes`: how often it reads the selection.
 */
export interface ExportWriter {
  passes: number;
  write(manifest: ExportManifest, source: RecordSource): AsyncGenerator<string, WriteSummary, undefined>;
}
