/** Public entry of export: adopted items, the current filter or everything, as JSON Lines, CSV or COCO JSON. */
export { ExportMenu } from './export-menu';
export { blobSink } from './sinks';
