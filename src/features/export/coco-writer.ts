import { contentOf, type RecordSource } from './export-record';
import { cocoImageOf, hasAnnotations, type CocoShape } from './coco-shapes';
import type { ExportManifest } from './manifest';
import type { BadGeometry, ExportWriter, WriteSummary } from './writer';

const UNLABELLED = 'unlabelled';
/** Shapes and images named in the file, the manifest and the dialog; past this they are counted only. */
const MAX_NAMED = 100;

/** bbox [x, y, w, h], area and segmentation of one shape, in COCO's terms. */
function cocoGeometry(shape: CocoShape): { bbox: [number, number, number, number]; area: number; segmentation: number[][]; keypoints?: number[] } {
  if (shape.kind === 'box') return { bbox: [shape.x, shape.y, shape.width, shape.height], area: shape.width * shape.height, segmentation: [] };
  const xs = shape.points.map((p) => p[0]);
  const ys = shape.points.map((p) => p[1]);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  const bbox: [number, number, number, number] = [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
  if (shape.kind === 'keypoints') return { bbox, area: bbox[2] * bbox[3], segmentation: [], keypoints: shape.points.flat() };
  // The shoelace formula: the polygon's own area, not its box's.
  let twice = 0;
  shape.points.forEach(([px, py], i) => {
    const [qx, qy] = shape.points[(i + 1) % shape.points.length]!;
    twice += px * qy - qx * py;
  });
  return { bbox, area: Math.abs(twice) / 2, segmentation: [shape.points.flat()] };
}

/**
 * COCO JSON: `info` (with the manifest), `images`, `annotations`, `categories`, then `left_out`
 * (items with no image annotations, and shapes and images whose geometry is not finite or is
 * negative, counted and named). Every shape is written: the viewer's cap is for drawing only.
 * Streamed in two passes over the selection, images first and then annotations, so neither list is
 * ever held whole; categories are few and come last.
 */
async function* writeCoco(manifest: ExportManifest, source: RecordSource): AsyncGenerator<string, WriteSummary, undefined> {
  const info = {
    description: `Data Delivery Console export of subscription ${manifest.subscription.id}`,
    url: manifest.connection.base_url,
    version: '1.0',
    year: Number(manifest.created_at.slice(0, 4)),
    contributor: manifest.connection.name,
    date_created: manifest.created_at,
    manifest,
  };
  yield `{"info":${JSON.stringify(info)},\n"images":[`;
  let imageId = 0;
  let leftOut = 0;
  const bad: BadGeometry = { shapes: 0, images: 0, named: [] };
  const name = (item_id: string, problem: { where: string; label?: string; problem: string }) => {
    if (bad.named.length < MAX_NAMED) bad.named.push({ item_id, ...problem });
  };
  for await (const { row, record } of source()) {
    const image = cocoImageOf(contentOf(row, record));
    if (!hasAnnotations(image)) {
      leftOut++;
      continue;
    }
    if (image.badSize) {
      bad.images++;
      name(row.item.itemId, image.badSize);
      continue;
    }
    bad.shapes += image.rejected.length;
    for (const problem of image.rejected) name(row.item.itemId, problem);
    const entry = {
      id: ++imageId,
      file_name: image.url,
      coco_url: image.url,
      width: image.width ?? null,
      height: image.height ?? null,
      item_id: row.item.itemId,
      subscription_id: row.item.subscriptionId,
    };
    yield `${imageId > 1 ? ',' : ''}\n${JSON.stringify(entry)}`;
  }
  yield '],\n"annotations":[';
  const categories = new Map<string, { id: number; name: string; supercategory: string; keypoints?: string[]; skeleton?: number[][] }>();
  let annotationId = 0;
  let imageAgain = 0;
  for await (const { row, record } of source()) {
    const image = cocoImageOf(contentOf(row, record));
    if (!hasAnnotations(image) || image.badSize) continue;
    imageAgain++;
    const lines: string[] = [];
    for (const shape of image.shapes) {
      const name = shape.label ?? UNLABELLED;
      const category = categories.get(name) ?? categories.set(name, { id: categories.size + 1, name, supercategory: '' }).get(name)!;
      const { bbox, area, segmentation, keypoints } = cocoGeometry(shape);
      if (keypoints) {
        // A keypoint category names its points; delivered content gives none, so they are numbered.
        const count = keypoints.length / 3;
        if ((category.keypoints?.length ?? 0) < count) category.keypoints = Array.from({ length: count }, (_, i) => String(i + 1));
        category.skeleton ??= [];
      }
      const annotation = {
        id: ++annotationId,
        image_id: imageAgain,
        category_id: category.id,
        bbox,
        area,
        segmentation,
        iscrowd: 0,
        ...(keypoints ? { keypoints, num_keypoints: keypoints.filter((_, i) => i % 3 === 2 && keypoints[i]! > 0).length } : {}),
      };
      lines.push(`${annotationId > 1 ? ',' : ''}\n${JSON.stringify(annotation)}`);
    }
    yield lines.join('');
  }
  const left = {
    count: leftOut,
    reason: 'no image with boxes, polygons or keypoints',
    bad_geometry: { shapes: bad.shapes, images: bad.images, reason: 'a coordinate or size not finite, negative or past 2^53', named: bad.named },
  };
  yield `],\n"categories":${JSON.stringify([...categories.values()])},\n"left_out":${JSON.stringify(left)}}\n`;
  return { written: imageId, leftOut, badGeometry: bad };
}

export const cocoWriter: ExportWriter = { passes: 2, write: writeCoco };
