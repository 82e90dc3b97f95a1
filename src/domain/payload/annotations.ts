import { looksLikeImage } from './safe-url';

/** Shapes drawn over an image: boxes and polygons in the common payload forms. */
export type Shape = (
  { kind: 'box'; label?: string; x: number; y: number; width: number; height: number } | { kind: 'polygon'; label?: string; points: [number, number][] }
) & {
  /** The annotation's other plain fields (occluded, score…), as text, shown when the shape is hovered or focused. */
  attributes?: [string, string][];
};

export interface ImageWithShapes {
  url: string;
  width?: number;
  height?: number;
  shapes: Shape[];
}

// Dense scenes (500 boxes and 100 polygons, the viewer's benchmark) are drawn whole.
const MAX_SHAPES = 2_000;
const MAX_ATTRIBUTES = 8;
const MAX_SCAN = 2_000;

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function labelOf(record: Record<string, unknown>): string | undefined {
  const label = record.label ?? record.class ?? record.category ?? record.name;
  return typeof label === 'string' ? label.slice(0, 80) : undefined;
}

/** Reads one value as a shape: {x,y,width,height}, [x1,y1,x2,y2], or a point list. */
export function toShape(value: unknown, label?: string): Shape | null {
  if (Array.isArray(value)) {
    if (value.length === 4 && value.every(num)) {
      const [x1, y1, x2, y2] = value as number[] as [number, number, number, number];
      const [width, height] = [x2 - x1, y2 - y1];
      // Finite corners far apart can still give an infinite size, which no drawing can use.
      if (num(width) && num(height) && width >= 0 && height >= 0) return { kind: 'box', label, x: x1, y: y1, width, height };
      return null;
    }
    if (value.length >= 3 && value.length <= 1_000) {
      const points = value.filter((p): p is [number, number] => Array.isArray(p) && p.length === 2 && num(p[0]) && num(p[1]));
      if (points.length === value.length) return { kind: 'polygon', label, points };
      const objects = value.filter((p): p is { x: number; y: number } => isRecord(p) && num(p.x) && num(p.y));
      if (objects.length === value.length) return { kind: 'polygon', label, points: objects.map((p) => [p.x, p.y]) };
    }
    return null;
  }
  if (isRecord(value)) {
    const { x, y } = value;
    const width = value.width ?? value.w;
    const height = value.height ?? value.h;
    if (num(x) && num(y) && num(width) && num(height) && width >= 0 && height >= 0) {
      return { kind: 'box', label: label ?? labelOf(value), x, y, width, height };
    }
  }
  return null;
}

const SHAPE_KEYS = ['bbox', 'box', 'bounding_box', 'polygon', 'points', 'segmentation'];
const NOT_ATTRIBUTES = new Set([...SHAPE_KEYS, 'label', 'class', 'category', 'name', 'x', 'y', 'width', 'height', 'w', 'h']);

/** An annotation's plain fields besides its shape and label, bounded and as text only. */
function attributesOf(record: Record<string, unknown>): [string, string][] | undefined {
  const found: [string, string][] = [];
  for (const key in record) {
    if (found.length >= MAX_ATTRIBUTES) break;
    const value = record[key];
    if (NOT_ATTRIBUTES.has(key) || !['string', 'number', 'boolean'].includes(typeof value)) continue;
    found.push([key.slice(0, 40), String(value).slice(0, 80)]);
  }
  return found.length ? found : undefined;
}

const withAttributes = (shape: Shape, record: Record<string, unknown>): Shape => {
  const attributes = attributesOf(record);
  return attributes ? { ...shape, attributes } : shape;
};

/** Shapes of one annotation object, whichever of the common keys it uses. */
function shapesOfAnnotation(value: unknown): Shape[] {
  if (!isRecord(value)) {
    const direct = toShape(value);
    return direct ? [direct] : [];
  }
  const label = labelOf(value);
  for (const key of SHAPE_KEYS) {
    if (key in value) {
      const shape = toShape(value[key], label);
      if (shape) return [withAttributes(shape, value)];
    }
  }
  const flat = toShape(value, label);
  return flat ? [withAttributes(flat, value)] : [];
}

const ANNOTATION_KEY = /annotation|object|box|region|shape|label|detection|polygon/i;

/** One entry of a payload's annotation lists: where it is (`objects[3]`) and the shapes read from it (none when unreadable). */
export interface AnnotationEntry {
  entry: unknown;
  where: string;
  shapes: Shape[];
}

/**
 * Every entry of the payload's annotation lists (keys named like annotations, boxes, objects…),
 * in order, lazily; at most `perList` entries of each list. A shape without its own label takes
 * the payload's `labels[index]`.
 */
export function* annotationEntries(payload: Record<string, unknown>, perList = Infinity): Generator<AnnotationEntry, void, undefined> {
  const labels = Array.isArray(payload.labels) ? payload.labels : [];
  for (const [key, value] of Object.entries(payload)) {
    if (!Array.isArray(value) || !ANNOTATION_KEY.test(key) || key === 'labels') continue;
    const end = Math.min(value.length, perList);
    for (let index = 0; index < end; index++) {
      const entry: unknown = value[index];
      const fallback = typeof labels[index] === 'string' ? (labels[index] as string) : undefined;
      const shapes = shapesOfAnnotation(entry).map((shape) => ({ ...shape, label: shape.label ?? fallback }));
      yield { entry, where: `${key}[${index}]`, shapes };
    }
  }
}

/** The first image of a payload (a URL-like field, up to two levels down) and the record that holds it (its size is read there). */
export function locateImage(payload: Record<string, unknown>): { url: string; holder: Record<string, unknown> } | null {
  let budget = MAX_SCAN;
  const candidates: { url: string; holder: Record<string, unknown> }[] = [];
  const visit = (record: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(record)) {
      if (--budget <= 0) return;
      if (typeof value === 'string' && looksLikeImage(key, value)) candidates.push({ url: value, holder: record });
      else if (isRecord(value) && depth < 2) visit(value, depth + 1);
    }
  };
  visit(payload, 0);
  return candidates[0] ?? null;
}

/**
 * Finds an image in a payload and the annotations beside it, for drawing. Bounded: a hostile
 * payload costs at most a few thousand checks, and at most MAX_SHAPES shapes are drawn (an export
 * reads every entry with `annotationEntries`).
 */
export function findImage(payload: Record<string, unknown>): ImageWithShapes | null {
  const image = locateImage(payload);
  if (!image) return null;
  const shapes: Shape[] = [];
  for (const { shapes: found } of annotationEntries(payload, MAX_SHAPES)) {
    shapes.push(...found.slice(0, MAX_SHAPES - shapes.length));
    if (shapes.length >= MAX_SHAPES) break;
  }
  const size = image.holder;
  return {
    url: image.url,
    width: num(size.width) ? size.width : undefined,
    height: num(size.height) ? size.height : undefined,
    shapes,
  };
}
