import type { ExportManifest } from './manifest';
import type { RecordSource } from './export-record';

/** A shape, or an image, left out of a file for its geometry: its item, where it is in the item, and why. */
interface GeometryLeftOut {
  item_id: string;
  where: string;
  label?: string;
  problem: string;
}

/** How many shapes and images were left out for their geometry, and the first of them by name. */
export interface BadGeometry {
  shapes: number;
  images: number;
  named: GeometryLeftOut[];
}

/** What a writer reports once its file is complete. */
export interface WriteSummary {
  /** Items written to the file. */
  written: number;
  /** Items selected but not written (COCO: no image with boxes, polygons or point lists). */
  leftOut: number;
  /** COCO: shapes and images with non-finite or negative geometry, left out (their items' other shapes are written). */
  badGeometry?: BadGeometry;
}

/**
 * A file format: text chunks from the manifest and the records, pulled by the runner one at a time
 * (so nothing is produced faster than it is written). `passes`: how often it reads the selection.
 */
export interface ExportWriter {
  passes: number;
  write(manifest: ExportManifest, source: RecordSource): AsyncGenerator<string, WriteSummary, undefined>;
}
