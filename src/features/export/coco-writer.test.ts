import { describe, expect, it } from 'vitest';
import { cocoWriter } from './coco-writer';
import { toKeypoints } from './coco-shapes';
import type { ExportRecord } from './export-record';
import { fixedSource, testManifest, triageRow } from './test-rows';

interface Coco {
  info: { manifest: { format: string; count: number } };
  images: { id: number; file_name: string; width: number | null; height: number | null; item_id: string }[];
  annotations: {
    id: number;
    image_id: number;
    category_id: number;
    bbox: number[];
    area: number;
    segmentation: number[][];
    keypoints?: number[];
    num_keypoints?: number;
  }[];
  categories: { id: number; name: string; keypoints?: string[] }[];
  left_out: { count: number; bad_geometry: { shapes: number; images: number; named: { item_id: string; where: string; problem: string }[] } };
}

async function coco(records: ExportRecord[]) {
  const generator = cocoWriter.write(testManifest('coco', records.length), fixedSource(records));
  let text = '';
  let step = await generator.next();
  while (!step.done) {
    text += step.value;
    step = await generator.next();
  }
  return { file: JSON.parse(text) as Coco, summary: step.value };
}

const live = (itemId: string, seq: number, data: unknown): ExportRecord => ({ row: triageRow({ itemId, seq }), record: { submission_id: itemId, data } });

describe('COCO writer', () => {
  it('writes boxes ({x,y,width,height} and corner lists) with bbox [x,y,w,h], categories from the labels', async () => {
    const { file, summary } = await coco([
      live('1', 1, {
        image: { url: 'https://cdn.example/1.jpg', width: 640, height: 480 },
        annotations: [
          { label: 'car', bbox: { x: 10, y: 20, width: 30, height: 40 } },
          { label: 'person', bbox: { x: 1, y: 2, width: 3, height: 4 } },
        ],
      }),
      live('2', 2, { photo_url: '/media/scenes/2.svg', boxes: [[5, 5, 15, 25]], labels: ['car'] }),
    ]);
    expect(summary).toMatchObject({ written: 2, leftOut: 0, badGeometry: { shapes: 0, images: 0 } });
    expect(file.info.manifest).toMatchObject({ format: 'coco', count: 2 });
    expect(file.images).toEqual([
      expect.objectContaining({ id: 1, file_name: 'https://cdn.example/1.jpg', width: 640, height: 480, item_id: '1' }),
      expect.objectContaining({ id: 2, file_name: '/media/scenes/2.svg', width: null, height: null, item_id: '2' }),
    ]);
    expect(file.categories.map((c) => [c.id, c.name])).toEqual([
      [1, 'car'],
      [2, 'person'],
    ]);
    expect(file.annotations).toEqual([
      expect.objectContaining({ id: 1, image_id: 1, category_id: 1, bbox: [10, 20, 30, 40], area: 1200, segmentation: [] }),
      expect.objectContaining({ id: 2, image_id: 1, category_id: 2, bbox: [1, 2, 3, 4], area: 12 }),
      expect.objectContaining({ id: 3, image_id: 2, category_id: 1, bbox: [5, 5, 10, 20], area: 200 }),
    ]);
  });

  it('writes polygons (pairs or {x,y} point lists) as segmentation, with their box and own area', async () => {
    const { file } = await coco([
      live('1', 1, {
        image_url: 'https://cdn.example/seg.png',
        objects: [
          {
            label: 'roof',
            polygon: [
              [0, 0],
              [10, 0],
              [10, 10],
              [0, 10],
            ],
          },
          {
            label: 'door',
            points: [
              { x: 2, y: 2 },
              { x: 6, y: 2 },
              { x: 2, y: 8 },
            ],
          },
        ],
      }),
    ]);
    expect(file.annotations).toEqual([
      expect.objectContaining({ category_id: 1, segmentation: [[0, 0, 10, 0, 10, 10, 0, 10]], bbox: [0, 0, 10, 10], area: 100 }),
      expect.objectContaining({ category_id: 2, segmentation: [[2, 2, 6, 2, 2, 8]], bbox: [2, 2, 4, 6], area: 12 }),
    ]);
  });

  it('writes keypoint lists as keypoints with visibility, and numbers the category points', async () => {
    const { file } = await coco([
      live('1', 1, {
        image_url: 'https://cdn.example/pose.jpg',
        poses: [
          {
            label: 'person',
            keypoints: [
              [10, 10],
              [20, 30, 1],
              [0, 0, 0],
            ],
          },
        ],
      }),
      live('2', 2, {
        image_url: 'https://cdn.example/face.jpg',
        landmarks: [
          { x: 1, y: 2 },
          { x: 3, y: 4, visible: false },
        ],
      }),
    ]);
    expect(file.annotations).toEqual([
      expect.objectContaining({ image_id: 1, category_id: 1, keypoints: [10, 10, 2, 20, 30, 1, 0, 0, 0], num_keypoints: 2, bbox: [0, 0, 20, 30] }),
      expect.objectContaining({ image_id: 2, category_id: 2, keypoints: [1, 2, 2, 3, 4, 1], num_keypoints: 2 }),
    ]);
    expect(file.categories).toEqual([
      { id: 1, name: 'person', supercategory: '', keypoints: ['1', '2', '3'], skeleton: [] },
      { id: 2, name: 'unlabelled', supercategory: '', keypoints: ['1', '2'], skeleton: [] },
    ]);
    expect(toKeypoints([1, 2, 2, 3, 4, 0])).toEqual([
      [1, 2, 2],
      [3, 4, 0],
    ]);
    expect(toKeypoints([1, 2, 3, 4])).toBeNull();
  });

  it('leaves out items without an image or without annotations, and counts them', async () => {
    const { file, summary } = await coco([
      live('1', 1, { text: 'no image here' }),
      live('2', 2, { image_url: 'https://cdn.example/tags.jpg', tags: ['sunny'] }),
      { row: triageRow({ itemId: '3', seq: 3 }), record: null },
      live('4', 4, { image_url: 'https://cdn.example/ok.jpg', annotations: [{ x: 1, y: 1, width: 2, height: 2 }] }),
    ]);
    expect(summary).toMatchObject({ written: 1, leftOut: 3 });
    expect(file.images.map((i) => [i.id, i.item_id])).toEqual([[1, '4']]);
    expect(file.annotations).toEqual([expect.objectContaining({ image_id: 1, category_id: 1, bbox: [1, 1, 2, 2] })]);
    expect(file.categories.map((c) => c.name)).toEqual(['unlabelled']);
    expect(file.left_out.count).toBe(3);
  });

  it('writes every shape of an item with 20,000 boxes: the viewer draws 2,000, the export keeps all', async () => {
    const boxes = Array.from({ length: 20_000 }, (_, i) => ({
      label: i % 2 ? 'car' : 'bus',
      bbox: { x: i % 600, y: (i * 7) % 400, width: 5 + (i % 30), height: 4 + (i % 20) },
    }));
    const { file, summary } = await coco([live('1', 1, { image: { url: 'https://cdn.example/dense.jpg', width: 640, height: 480 }, annotations: boxes })]);
    expect(summary).toMatchObject({ written: 1, leftOut: 0, badGeometry: { shapes: 0, images: 0, named: [] } });
    expect(file.annotations).toHaveLength(20_000);
    expect(new Set(file.annotations.map((a) => a.id)).size).toBe(20_000);
    expect(file.annotations[19_999]).toMatchObject({ image_id: 1, bbox: [19_999 % 600, (19_999 * 7) % 400, 5 + (19_999 % 30), 4 + (19_999 % 20)] });
  });

  it('leaves out shapes with non-finite or negative geometry, counts them and names each; the other shapes are written', async () => {
    const { file, summary } = await coco([
      live('1', 1, {
        image: { url: 'https://cdn.example/1.jpg', width: 640, height: 480 },
        annotations: [
          { label: 'ok', bbox: { x: 1, y: 2, width: 3, height: 4 } },
          { label: 'huge', bbox: { x: 0, y: 0, width: 1e308, height: 1e308 } },
          { label: 'negative', bbox: { x: 10, y: 10, width: -5, height: 4 } },
          { label: 'corners', bbox: [50, 50, 10, 60] },
          { label: 'infinite', bbox: [0, 0, Infinity, 5] },
          { label: 'left of the image', bbox: { x: -3, y: 0, width: 2, height: 2 } },
          {
            label: 'roof',
            polygon: [
              [0, 0],
              [1e308, 0],
              [1e308, 1e308],
            ],
          },
          { label: 'tag only', note: 'not a shape' },
        ],
        poses: [{ label: 'person', keypoints: [1, 2, 2, Infinity, 3, 2] }],
      }),
    ]);
    expect(file.annotations.map((a) => a.bbox)).toEqual([[1, 2, 3, 4]]);
    for (const a of file.annotations) expect(Number.isFinite(a.area)).toBe(true);
    expect(summary.badGeometry).toMatchObject({ shapes: 7, images: 0 });
    expect(file.left_out.bad_geometry.shapes).toBe(7);
    expect(file.left_out.bad_geometry.named.map((n) => [n.item_id, n.where])).toEqual([
      ['1', 'annotations[2]'],
      ['1', 'annotations[3]'],
      ['1', 'annotations[4]'],
      ['1', 'annotations[1]'],
      ['1', 'annotations[5]'],
      ['1', 'annotations[6]'],
      ['1', 'poses[0]'],
    ]);
    expect(file.left_out.bad_geometry.named.find((n) => n.where === 'annotations[1]')?.problem).toBe('a coordinate is larger than 2^53');
    expect(file.left_out.bad_geometry.named.find((n) => n.where === 'annotations[2]')?.problem).toBe('a size is negative');
    expect(file.left_out.bad_geometry.named.find((n) => n.where === 'annotations[4]')?.problem).toBe('a coordinate is not a finite number');
  });

  it('leaves out an image whose size is negative or not finite, whole, and names it', async () => {
    const { file, summary } = await coco([
      live('1', 1, { image: { url: 'https://cdn.example/bad.jpg', width: -1, height: 1e308 }, annotations: [{ bbox: [1, 1, 2, 2] }] }),
      live('2', 2, { image: { url: 'https://cdn.example/good.jpg', width: 10, height: 10 }, annotations: [{ bbox: [1, 1, 2, 2] }] }),
    ]);
    expect(file.images.map((i) => [i.item_id, i.width, i.height])).toEqual([['2', 10, 10]]);
    expect(file.annotations).toEqual([expect.objectContaining({ image_id: 1, bbox: [1, 1, 1, 1] })]);
    expect(summary).toMatchObject({
      written: 1,
      leftOut: 0,
      badGeometry: { shapes: 0, images: 1, named: [{ item_id: '1', where: 'image size', problem: 'a size is negative' }] },
    });
    expect(file.left_out.bad_geometry).toMatchObject({ images: 1 });
  });
});
