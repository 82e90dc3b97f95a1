import { annotationEntries, locateImage, type Shape } from '../../domain/payload';

/** An annotation in COCO's terms, read from delivered content; `where` names it in its item (`annotations[3]`). */
export type CocoShape = (
  | { kind: 'box'; label?: string; x: number; y: number; width: number; height: number }
  | { kind: 'polygon'; label?: string; points: [number, number][] }
  | { kind: 'keypoints'; label?: string; points: [number, number, number][] }
) & { where: string };

/** A shape, or an image's size, left out of a COCO file for its geometry: where it is and why. */
interface GeometryProblem {
  where: string;
  label?: string;
  problem: string;
}

export interface CocoImage {
  url: string;
  width?: number;
  height?: number;
  /** Every shape of the item with a usable geometry (no cap: the viewer's applies to drawing only). */
  shapes: CocoShape[];
  /** Shapes with non-finite or negative geometry, left out. */
  rejected: GeometryProblem[];
  /** Set when the image's own size is not finite or negative: the whole item is left out. */
  badSize?: GeometryProblem;
}

/**
 * The largest coordinate or size written: pixel positions past 2^53 are not exact numbers, and
 * their products (areas) overflow to Infinity, which JSON writes as null.
 */
const MAX_COORDINATE = Number.MAX_SAFE_INTEGER;
const MAX_POINTS = 1_000;
const MAX_KEYPOINT_SETS = 500;
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const labelOf = (record: Record<string, unknown>): string | undefined => {
  const label = record.label ?? record.class ?? record.category ?? record.name;
  return typeof label === 'string' ? label.slice(0, 80) : undefined;
};

/** Why numbers cannot be written as geometry (non-finite, negative, or past MAX_COORDINATE), or null when they can. */
function numbersProblem(values: readonly number[], what = 'coordinate'): string | null {
  for (const value of values) {
    if (!Number.isFinite(value)) return `a ${what} is not a finite number`;
    if (value < 0) return `a ${what} is negative`;
    if (value > MAX_COORDINATE) return `a ${what} is larger than 2^53`;
  }
  return null;
}

/**
 * A keypoint list: [x, y] pairs, {x, y} objects (with `v` or `visible` when given), or COCO's flat
 * [x, y, v, …] triples. Visibility is COCO's: 2 = visible unless told otherwise. Any number is
 * read (even a non-finite one): the writer checks the geometry and names what it leaves out.
 */
export function toKeypoints(value: unknown): [number, number, number][] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_POINTS * 3) return null;
  if (value.every(isNumber)) {
    if (value.length % 3 !== 0) return null;
    const out: [number, number, number][] = [];
    for (let i = 0; i < value.length; i += 3) out.push([value[i] as number, value[i + 1] as number, value[i + 2] as number]);
    return out;
  }
  if (value.length > MAX_POINTS) return null;
  const out: [number, number, number][] = [];
  for (const point of value) {
    if (Array.isArray(point) && (point.length === 2 || point.length === 3) && point.every(isNumber)) {
      const [x, y, v = 2] = point as number[] as [number, number, number?];
      out.push([x, y, v]);
    } else if (isRecord(point) && isNumber(point.x) && isNumber(point.y)) {
      const visible = point.v ?? point.visible;
      out.push([point.x, point.y, isNumber(visible) ? visible : visible === false ? 1 : 2]);
    } else return null;
  }
  return out;
}

const KEYPOINT_KEYS = ['keypoints', 'landmarks'];
const KEYPOINT_HOLDER = /keypoint|landmark|pose|annotation|object|point|skeleton/i;

/**
 * Keypoint sets beside an image: top-level arrays named like keypoints whose entries carry
 * `keypoints` (or `landmarks`) with their label, or a top-level `keypoints` list itself. The
 * console's viewer (payload/annotations.ts) reads boxes and polygons; keypoints are COCO's addition.
 */
function keypointsOf(content: Record<string, unknown>): CocoShape[] {
  const found: CocoShape[] = [];
  for (const [key, value] of Object.entries(content)) {
    if (!Array.isArray(value) || !KEYPOINT_HOLDER.test(key) || found.length >= MAX_KEYPOINT_SETS) continue;
    if (KEYPOINT_KEYS.includes(key)) {
      const points = toKeypoints(value);
      if (points) {
        found.push({ kind: 'keypoints', points, where: key });
        continue;
      }
    }
    value.slice(0, MAX_KEYPOINT_SETS).forEach((entry: unknown, index) => {
      if (!isRecord(entry)) return;
      const list = KEYPOINT_KEYS.map((k) => entry[k]).find((v) => v !== undefined);
      const points = list === undefined ? null : toKeypoints(list);
      if (points && found.length < MAX_KEYPOINT_SETS) found.push({ kind: 'keypoints', label: labelOf(entry), points, where: `${key}[${index}]` });
    });
  }
  return found;
}

/** The numbers of a shape as they will be written. */
const numbersOf = (shape: CocoShape): number[] => (shape.kind === 'box' ? [shape.x, shape.y, shape.width, shape.height] : shape.points.flat());

const SHAPE_KEYS = ['bbox', 'box', 'bounding_box', 'polygon', 'points', 'segmentation'];
const isPointList = (v: unknown): v is unknown[] =>
  Array.isArray(v) &&
  v.length >= 3 &&
  v.every((p) => (Array.isArray(p) && p.length === 2 && p.every(isNumber)) || (isRecord(p) && isNumber(p.x) && isNumber(p.y)));
const isBoxRecord = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && isNumber(v.x) && isNumber(v.y) && isNumber(v.width ?? v.w) && isNumber(v.height ?? v.h);
const isCornerList = (v: unknown): v is number[] => Array.isArray(v) && v.length === 4 && v.every(isNumber);

/**
 * Why an annotation entry the viewer could not read is a shape with a bad geometry (negative or
 * non-finite numbers, too many points), or null when it is no shape at all (a tag, a note).
 */
function unreadableShape(entry: unknown): string | null {
  const geometry = isRecord(entry) ? (SHAPE_KEYS.map((key) => entry[key]).find((v) => v !== undefined) ?? entry) : entry;
  if (isCornerList(geometry)) {
    const [x1, y1, x2, y2] = geometry as [number, number, number, number];
    return numbersProblem(geometry) ?? numbersProblem([x2 - x1, y2 - y1], 'size') ?? 'unreadable box';
  }
  if (isBoxRecord(geometry)) {
    const size = [geometry.width ?? geometry.w, geometry.height ?? geometry.h] as number[];
    return numbersProblem([geometry.x, geometry.y] as number[]) ?? numbersProblem(size, 'size') ?? 'unreadable box';
  }
  if (isPointList(geometry)) {
    if (geometry.length > MAX_POINTS) return `more than ${MAX_POINTS.toLocaleString('en-US')} points`;
    return (
      numbersProblem(geometry.flatMap((p) => (Array.isArray(p) ? (p as number[]) : [(p as { x: number }).x, (p as { y: number }).y]))) ?? 'unreadable points'
    );
  }
  return null;
}

const asCoco = (shape: Shape, where: string): CocoShape =>
  shape.kind === 'box'
    ? { kind: 'box', label: shape.label, x: shape.x, y: shape.y, width: shape.width, height: shape.height, where }
    : { kind: 'polygon', label: shape.label, points: shape.points, where };

/** Why an image's size cannot be written (absent is fine: COCO then has no size), or null. */
function sizeProblem(holder: Record<string, unknown>): string | null {
  const given = [holder.width, holder.height].filter((v) => v !== undefined && v !== null);
  if (given.some((v) => typeof v !== 'number')) return null;
  return numbersProblem(given as number[], 'size');
}

/**
 * The image of a delivered content with every annotation (boxes and polygons as the viewer finds
 * them, and keypoints), and what is left out for its geometry; null without an image.
 */
export function cocoImageOf(content: unknown): CocoImage | null {
  if (!isRecord(content)) return null;
  const image = locateImage(content);
  if (!image) return null;
  const shapes: CocoShape[] = [];
  const rejected: GeometryProblem[] = [];
  for (const { entry, where, shapes: found } of annotationEntries(content)) {
    if (found.length === 0) {
      const problem = unreadableShape(entry);
      if (problem) rejected.push({ where, label: isRecord(entry) ? labelOf(entry) : undefined, problem });
    }
    for (const shape of found) shapes.push(asCoco(shape, where));
  }
  shapes.push(...keypointsOf(content));
  const kept = shapes.filter((shape) => {
    const problem = numbersProblem(numbersOf(shape));
    if (problem) rejected.push({ where: shape.where, label: shape.label, problem });
    return !problem;
  });
  const { holder } = image;
  const badSize = sizeProblem(holder);
  const width = typeof holder.width === 'number' && !badSize ? holder.width : undefined;
  const height = typeof holder.height === 'number' && !badSize ? holder.height : undefined;
  return { url: image.url, width, height, shapes: kept, rejected, ...(badSize ? { badSize: { where: 'image size', problem: badSize } } : {}) };
}

/** Whether COCO has something to say of the item: an image with at least one shape (written, or named as left out). */
export const hasAnnotations = (image: CocoImage | null): image is CocoImage => image !== null && (image.shapes.length > 0 || image.rejected.length > 0);
