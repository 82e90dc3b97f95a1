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
  left_out: { count: number };
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
    expect(summary).toEqual({ written: 2, leftOut: 0 });
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
    expect(summary).toEqual({ written: 1, leftOut: 3 });
    expect(file.images.map((i) => [i.id, i.item_id])).toEqual([[1, '4']]);
    expect(file.annotations).toEqual([expect.objectContaining({ image_id: 1, category_id: 1, bbox: [1, 1, 2, 2] })]);
    expect(file.categories.map((c) => c.name)).toEqual(['unlabelled']);
    expect(file.left_out.count).toBe(3);
  });
});
