import { findImage } from '../payload';

/** An annotation in COCO's terms, read from delivered content. */
export type CocoShape =
  | { kind: 'box'; label?: string; x: number; y: number; width: number; height: number }
  | { kind: 'polygon'; label?: string; points: [number, number][] }
  | { kind: 'keypoints'; label?: string; points: [number, number, number][] };

export interface CocoImage {
  url: string;
  width?: number;
  height?: number;
  shapes: CocoShape[];
}

const MAX_POINTS = 1_000;
const MAX_KEYPOINT_SETS = 500;
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const labelOf = (record: Record<string, unknown>): string | undefined => {
  const label = record.label ?? record.class ?? record.category ?? record.name;
  return typeof label === 'string' ? label.slice(0, 80) : undefined;
};

/**
 * A keypoint list: [x, y] pairs, {x, y} objects (with `v` or `visible` when given), or COCO's flat
 * [x, y, v, …] triples. Visibility is COCO's: 2 = visible unless told otherwise.
 */
export function toKeypoints(value: unknown): [number, number, number][] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_POINTS * 3) return null;
  if (value.every(num)) {
    if (value.length % 3 !== 0) return null;
    const out: [number, number, number][] = [];
    for (let i = 0; i < value.length; i += 3) out.push([value[i] as number, value[i + 1] as number, value[i + 2] as number]);
    return out;
  }
  if (value.length > MAX_POINTS) return null;
  const out: [number, number, number][] = [];
  for (const point of value) {
    if (Array.isArray(point) && (point.length === 2 || point.length === 3) && point.every(num)) {
      const [x, y, v = 2] = point as number[] as [number, number, number?];
      out.push([x, y, v]);
    } else if (isRecord(point) && num(point.x) && num(point.y)) {
      const visible = point.v ?? point.visible;
      out.push([point.x, point.y, num(visible) ? visible : visible === false ? 1 : 2]);
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
        found.push({ kind: 'keypoints', points });
        continue;
      }
    }
    for (const entry of value.slice(0, MAX_KEYPOINT_SETS)) {
      if (!isRecord(entry)) continue;
      const list = KEYPOINT_KEYS.map((k) => entry[k]).find((v) => v !== undefined);
      const points = list === undefined ? null : toKeypoints(list);
      if (points && found.length < MAX_KEYPOINT_SETS) found.push({ kind: 'keypoints', label: labelOf(entry), points });
    }
  }
  return found;
}

/** The image of a delivered content and its annotations (boxes and polygons as the viewer finds them, and keypoints), or null. */
export function cocoImageOf(content: unknown): CocoImage | null {
  if (!isRecord(content)) return null;
  const image = findImage(content);
  if (!image) return null;
  const shapes: CocoShape[] = [...image.shapes, ...keypointsOf(content)];
  return { url: image.url, width: image.width, height: image.height, shapes };
}
