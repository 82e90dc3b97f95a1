import { describe, expect, it } from 'vitest';
import { findImage, toShape } from './annotations';

describe('toShape', () => {
  it('reads a corner box [x1, y1, x2, y2] as position and size', () => {
    expect(toShape([10, 20, 40, 70], 'cat')).toEqual({ kind: 'box', label: 'cat', x: 10, y: 20, width: 30, height: 50 });
    expect(toShape([5, 5, 5, 5])).toEqual({ kind: 'box', label: undefined, x: 5, y: 5, width: 0, height: 0 });
  });

  it('refuses inverted corners, non-finite and non-numeric coordinates', () => {
    expect(toShape([40, 20, 10, 70])).toBeNull();
    expect(toShape([10, 70, 40, 20])).toBeNull();
    expect(toShape([NaN, 0, 1, 1])).toBeNull();
    expect(toShape([0, 0, Infinity, 1])).toBeNull();
    expect(toShape(['0', '0', '1', '1'])).toBeNull();
    expect(toShape([0, 0, 1])).toBeNull();
    expect(toShape([0, 0, 1, 1, 2])).toBeNull();
  });

  it('refuses a box whose size overflows to Infinity', () => {
    expect(toShape([-1e308, 0, 1e308, 1])).toBeNull();
    expect(toShape([0, -Number.MAX_VALUE, 1, Number.MAX_VALUE])).toBeNull();
    // Huge but finite is still a box.
    expect(toShape([0, 0, 1e300, 1e300])).toEqual({ kind: 'box', label: undefined, x: 0, y: 0, width: 1e300, height: 1e300 });
  });

  it('reads {x, y, width, height} and {x, y, w, h} boxes, with their own label', () => {
    expect(toShape({ x: 1, y: 2, width: 3, height: 4, label: 'car' })).toEqual({ kind: 'box', label: 'car', x: 1, y: 2, width: 3, height: 4 });
    expect(toShape({ x: 1, y: 2, w: 3, h: 4, class: 'bus' })).toEqual({ kind: 'box', label: 'bus', x: 1, y: 2, width: 3, height: 4 });
    // A label given by the caller wins over the record's.
    expect(toShape({ x: 0, y: 0, w: 1, h: 1, label: 'own' }, 'given')?.label).toBe('given');
  });

  it('refuses boxes with negative, missing, NaN or string sizes', () => {
    expect(toShape({ x: 1, y: 2, width: -3, height: 4 })).toBeNull();
    expect(toShape({ x: 1, y: 2, width: 3 })).toBeNull();
    expect(toShape({ x: NaN, y: 2, width: 3, height: 4 })).toBeNull();
    expect(toShape({ x: '1', y: 2, width: 3, height: 4 })).toBeNull();
  });

  it('reads point lists as polygons: pairs or {x, y} objects, 3 to 1,000 of them, all well formed', () => {
    expect(
      toShape(
        [
          [0, 0],
          [10, 0],
          [10, 10],
        ],
        'roof',
      ),
    ).toEqual({
      kind: 'polygon',
      label: 'roof',
      points: [
        [0, 0],
        [10, 0],
        [10, 10],
      ],
    });
    expect(
      toShape([
        { x: 0, y: 0 },
        { x: 1, y: 0 },
        { x: 1, y: 1 },
        { x: 0, y: 1 },
      ]),
    ).toEqual({
      kind: 'polygon',
      label: undefined,
      points: [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
    });
    expect(
      toShape([
        [0, 0],
        [1, 1],
      ]),
    ).toBeNull();
    expect(toShape([[0, 0], [1, 1], [2]])).toBeNull();
    expect(
      toShape([
        [0, 0],
        [1, 1],
        [2, NaN],
      ]),
    ).toBeNull();
    expect(toShape([[0, 0], { x: 1, y: 1 }, [2, 2]])).toBeNull();
    expect(toShape([{ x: 0, y: 0 }, { x: 1 }, { x: 2, y: 2 }])).toBeNull();
    expect(toShape(Array.from({ length: 1_000 }, (_, i) => [i, i]))?.kind).toBe('polygon');
    expect(toShape(Array.from({ length: 1_001 }, (_, i) => [i, i]))).toBeNull();
  });

  it('reads nothing from values of the wrong type', () => {
    for (const wrong of [null, undefined, 0, 'box', true, {}, [], { points: [[0, 0]] }]) {
      expect(toShape(wrong)).toBeNull();
    }
  });
});

describe('findImage', () => {
  it('finds the image and reads each annotation form with its label', () => {
    const found = findImage({
      image_url: '/media/street.jpg',
      width: 640,
      height: 480,
      annotations: [
        { bbox: [10, 20, 110, 220], label: 'car' },
        {
          polygon: [
            [0, 0],
            [5, 0],
            [5, 5],
          ],
          class: 'sign',
        },
        {
          segmentation: [
            { x: 1, y: 1 },
            { x: 2, y: 1 },
            { x: 2, y: 2 },
          ],
          category: 'tree',
        },
        { x: 3, y: 4, w: 5, h: 6, name: 'dog' },
        [0, 0, 1, 1],
      ],
    });
    expect(found).toEqual({
      url: '/media/street.jpg',
      width: 640,
      height: 480,
      shapes: [
        { kind: 'box', label: 'car', x: 10, y: 20, width: 100, height: 200 },
        {
          kind: 'polygon',
          label: 'sign',
          points: [
            [0, 0],
            [5, 0],
            [5, 5],
          ],
        },
        {
          kind: 'polygon',
          label: 'tree',
          points: [
            [1, 1],
            [2, 1],
            [2, 2],
          ],
        },
        { kind: 'box', label: 'dog', x: 3, y: 4, width: 5, height: 6 },
        { kind: 'box', label: undefined, x: 0, y: 0, width: 1, height: 1 },
      ],
    });
  });

  it('takes labels from a parallel `labels` list when a shape has none', () => {
    const found = findImage({ photo: 'a.png', boxes: [[0, 0, 1, 1], { bbox: [1, 1, 2, 2], label: 'own' }, [2, 2, 3, 3]], labels: ['first', 'second', 7] });
    expect(found?.shapes.map((s) => s.label)).toEqual(['first', 'own', undefined]);
  });

  it('finds a nested image and takes its size from the record that holds it', () => {
    const found = findImage({ sample: { media: { url: 'https://cdn.example.org/x', width: 20, height: 10 } }, width: 999 });
    expect(found).toEqual({ url: 'https://cdn.example.org/x', width: 20, height: 10, shapes: [] });
    // Deeper than two levels is not searched.
    expect(findImage({ a: { b: { c: { image: 'x.png' } } } })).toBeNull();
  });

  it('finds an image by its extension or data: form under any key', () => {
    expect(findImage({ source: 'https://a.example/p.webp' })?.url).toBe('https://a.example/p.webp');
    expect(findImage({ raw: 'data:image/png;base64,AAAA' })?.url).toBe('data:image/png;base64,AAAA');
  });

  it('returns null when there is no image', () => {
    expect(findImage({})).toBeNull();
    expect(findImage({ title: 'hello', annotations: [[0, 0, 1, 1]] })).toBeNull();
    expect(findImage({ image: 42, photo: null, picture: ['a.png'] })).toBeNull();
  });

  it('ignores annotation lists of the wrong shape and keys that do not name annotations', () => {
    const found = findImage({
      image: 'a.png',
      width: 'wide',
      height: NaN,
      annotations: 'not a list',
      objects: [null, 'box', 3, { bbox: 'no' }, { x: 1 }, [[0, 0]]],
      extras: [[0, 0, 1, 1]],
      labels: [[0, 0, 1, 1]],
    });
    expect(found).toEqual({ url: 'a.png', width: undefined, height: undefined, shapes: [] });
  });

  it('keeps labels short and only as text', () => {
    const found = findImage({
      image: 'a.png',
      boxes: [
        { bbox: [0, 0, 1, 1], label: 'x'.repeat(500) },
        { bbox: [0, 0, 1, 1], label: { html: '<b>' } },
      ],
    });
    expect(found?.shapes[0]?.label).toBe('x'.repeat(80));
    expect(found?.shapes[1]?.label).toBeUndefined();
  });

  it('keeps an annotation’s other plain fields as text attributes, bounded', () => {
    const found = findImage({
      image: 'a.png',
      annotations: [
        { label: 'car', bbox: [0, 0, 1, 1], occluded: true, score: 0.9, note: { html: '<b>' }, id: 'x'.repeat(200) },
        { label: 'bus', bbox: [0, 0, 1, 1] },
      ],
    });
    expect(found?.shapes[0]?.attributes).toEqual([
      ['occluded', 'true'],
      ['score', '0.9'],
      ['id', 'x'.repeat(80)],
    ]);
    expect(found?.shapes[1]).not.toHaveProperty('attributes');
  });

  it('stays bounded on a hostile payload: at most 2,000 shapes, a few thousand keys scanned', () => {
    const many = findImage({ image: 'a.png', boxes: Array.from({ length: 10_000 }, () => [0, 0, 1, 1]), regions: [[0, 0, 1, 1]] });
    expect(many?.shapes).toHaveLength(2_000);
    const padding = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]));
    expect(findImage({ ...padding, image: 'a.png' })).toBeNull();
  });
});
