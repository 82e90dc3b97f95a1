import { describe, expect, it } from 'vitest';
import {
  detectTaskShapes,
  findChips,
  findDialogue,
  findGrades,
  findQaPairs,
  findRanking,
  findRatings,
  findScores,
  findSpanText,
  hasTaskShape,
  normalizeSpans,
} from './task-shapes';

// Payloads as the demo seed (server/seed/payloads.ts) delivers them.
const DEMO = {
  nerObjects: {
    text: 'Customer in Toronto reported order #96869 missing on 8 May.',
    entities: [
      { start: 12, end: 19, label: 'LOCATION', text: 'Toronto' },
      { start: 35, end: 41, label: 'ORDER_ID', text: '#96869' },
      { start: 53, end: 58, label: 'DATE', text: '8 May' },
    ],
    language: 'en',
  },
  nerTriples: {
    text: 'Customer in Nairobi reported order #1270 missing on 15 May.',
    spans: [
      [12, 19, 'LOCATION'],
      [35, 40, 'ORDER_ID'],
      [52, 58, 'DATE'],
    ],
    language: 'en',
  },
  intent: { text: 'Hi, please cancel my subscription 42. Thanks.', label: 'cancellation', confidence: 0.912 },
  generation: {
    conversation: [
      { speaker: 'customer', text: 'Hey there, the size guide for item 43153 seems wrong. Cheers!' },
      { speaker: 'agent', text: 'Thanks for reaching out, I am looking into it now.' },
    ],
    summary: 'Customer contacted support about product question.',
    rating: 3,
    candidates: [
      { rank: 2, response: 'Could you send a photo?' },
      { rank: 3, response: 'I am sorry for the trouble.' },
      { rank: 1, response: 'I have passed this to the right team.' },
    ],
  },
  supportDialogue: {
    dialogue: [
      { role: 'customer', text: 'Hi, I cannot log in since the update.' },
      { role: 'agent', text: 'I have escalated this.' },
      { role: 'customer', text: 'Thanks.' },
    ],
    intent: 'account_access',
    resolved: true,
    csat: 1,
  },
  classification: { image_url: '/media/scenes/3.svg', tags: ['fog', 'urban'], confidence: 0.865 },
  boxes: {
    image: { url: '/media/scenes/1.svg', width: 640, height: 480 },
    annotations: [{ label: 'car', bbox: { x: 1, y: 2, width: 3, height: 4 }, occluded: false }],
  },
  receipt: { receipt: { merchant: { name: 'Green Basket' }, currency: 'EUR', lines: [{ sku: 'SKU-1', quantity: 1, unit_price: 2.5 }] } },
};

describe('spans', () => {
  it('reads {start, end, label} objects and [start, end, label] triples beside the text', () => {
    const objects = findSpanText(DEMO.nerObjects)!;
    expect(objects.field).toBe('entities');
    expect(objects.spans.map((s) => [DEMO.nerObjects.text.slice(s.start, s.end), s.label])).toEqual([
      ['Toronto', 'LOCATION'],
      ['#96869', 'ORDER_ID'],
      ['8 May', 'DATE'],
    ]);
    const triples = findSpanText(DEMO.nerTriples)!;
    expect(triples.field).toBe('spans');
    expect(triples.spans.map((s) => DEMO.nerTriples.text.slice(s.start, s.end))).toEqual(['Nairobi', '#1270', '15 May']);
    expect(triples.ignored).toBe(0);
  });

  it('finds {text, spans} one level down and the usual synonyms of the offsets', () => {
    const found = findSpanText({
      doc: {
        content: 'Ada met Bob',
        mentions: [
          { start_offset: 0, end_offset: 3, type: 'PER' },
          { begin: 8, endOffset: 11, tag: 'PER' },
        ],
      },
    });
    expect(found?.field).toBe('doc.mentions');
    expect(found?.spans).toEqual([
      { start: 0, end: 3, label: 'PER' },
      { start: 8, end: 11, label: 'PER' },
    ]);
  });

  it('clamps offsets to the text and ignores empty, reversed, overlapping and malformed spans', () => {
    const text = 'abcdefghij';
    expect(
      normalizeSpans(text, [
        { start: -5, end: 2, label: 'A' },
        { start: 8, end: 99, label: 'B' },
        { start: 5, end: 5, label: 'empty' },
        { start: 7, end: 4, label: 'reversed' },
        { start: 1, end: 3, label: 'overlaps A' },
        { start: 50, end: 60, label: 'outside' },
      ]),
    ).toEqual({
      spans: [
        { start: 0, end: 2, label: 'A' },
        { start: 8, end: 10, label: 'B' },
      ],
      ignored: 4,
    });
    // Mostly not spans: not a span list at all.
    expect(findSpanText({ text, spans: [[0, 1, 'x'], 'a', 'b', { start: '0', end: 1 }] })).toBeNull();
    // Offsets that are not whole numbers are not offsets.
    expect(findSpanText({ text, spans: [[0.5, 2, 'x']] })).toBeNull();
  });

  it('keeps labels as short text: markup is never read as such', () => {
    const found = findSpanText({ text: 'hello', spans: [[0, 5, '<img src=x onerror=alert(1)>' + 'x'.repeat(500)]] })!;
    expect(found.spans[0]!.label.startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect(found.spans[0]!.label.length).toBeLessThanOrEqual(81);
  });

  it('reads code-point offsets (Python’s) when the spans’ own text says so', () => {
    const text = '😀 Ada in Oslo';
    // In code points "Oslo" is 9..13; in UTF-16 units it is 10..14.
    const found = findSpanText({ text, entities: [{ start: 9, end: 13, label: 'LOC', text: 'Oslo' }] })!;
    expect(text.slice(found.spans[0]!.start, found.spans[0]!.end)).toBe('Oslo');
  });
});

describe('chips, dialogues, questions, ratings, rankings, grades and scores', () => {
  it('labels and classes as chips: a string or a list of strings under a key that names them', () => {
    expect(findChips(DEMO.intent)).toEqual([{ field: 'label', values: ['cancellation'] }]);
    expect(findChips(DEMO.classification)).toEqual([{ field: 'tags', values: ['fog', 'urban'] }]);
    expect(findChips(DEMO.supportDialogue)).toEqual([{ field: 'intent', values: ['account_access'] }]);
    expect(findChips({ labels: [1, 2], tags: [], classes: { a: 1 }, label: '' })).toEqual([]);
  });

  it('dialogues: turns of {role|speaker, text|content}, the payload itself or one of its lists', () => {
    expect(findDialogue(DEMO.generation)?.turns.map((t) => t.speaker)).toEqual(['customer', 'agent']);
    expect(findDialogue(DEMO.supportDialogue)).toMatchObject({ field: 'dialogue', turns: { length: 3 } });
    expect(findDialogue([{ role: 'user', content: 'hi' }])?.turns).toEqual([{ speaker: 'user', text: 'hi' }]);
    // ShareGPT's {from, value}.
    expect(findDialogue({ conversations: [{ from: 'human', value: 'hi' }] })?.turns).toEqual([{ speaker: 'human', text: 'hi' }]);
    // One turn of the wrong shape and the list is not a dialogue.
    expect(findDialogue({ turns: [{ role: 'user', content: 'hi' }, { role: 'bot' }] })).toBeNull();
    expect(findDialogue(DEMO.boxes)).toBeNull();
  });

  it('question and answer pairs, one or a list', () => {
    expect(findQaPairs({ question: 'Why?', answer: 'Because.' })).toEqual([{ question: 'Why?', answer: 'Because.' }]);
    expect(
      findQaPairs({
        pairs: [
          { prompt: 'a', response: 'b' },
          { q: 'c', a: 'd' },
        ],
      }),
    ).toHaveLength(2);
    expect(findQaPairs({ question: 'Why?', answer: 42 })).toEqual([]);
  });

  it('ratings: whole numbers 0–10 under a key that names one', () => {
    expect(findRatings(DEMO.generation)).toEqual([{ field: 'rating', value: 3, max: 5 }]);
    expect(findRatings(DEMO.supportDialogue)).toEqual([{ field: 'csat', value: 1, max: 5 }]);
    expect(findRatings({ nps: 9, rating: 3.5, stars: -1, user_rating: 11 })).toEqual([{ field: 'nps', value: 9, max: 10 }]);
  });

  it('rankings: records with a rank, best first; or strings under a key that names a ranking', () => {
    expect(findRanking(DEMO.generation)?.entries.map((e) => e.rank)).toEqual([1, 2, 3]);
    expect(findRanking(DEMO.generation)?.entries[0]?.text).toBe('I have passed this to the right team.');
    expect(findRanking({ ranking: ['b', 'a'] })?.entries).toEqual([
      { rank: 1, text: 'b' },
      { rank: 2, text: 'a' },
    ]);
    expect(findRanking({ fruits: ['b', 'a'] })).toBeNull();
    expect(
      findRanking({
        candidates: [
          { rank: 'first', text: 'x' },
          { rank: 2, text: 'y' },
        ],
      }),
    ).toBeNull();
  });

  it('grades (A–F) and scores (0–1)', () => {
    expect(findGrades({ quality_grade: 'b', grade: 'Z', other: 'A' })).toEqual([{ field: 'quality_grade', grade: 'B' }]);
    expect(findScores(DEMO.intent)).toEqual([{ field: 'confidence', value: 0.912 }]);
    expect(findScores({ score: 7, quality: Number.NaN, confidence: -0.1 })).toEqual([]);
  });
});

describe('detectTaskShapes', () => {
  it('finds what each demo payload holds, and nothing in one it does not recognise (the tree shows it)', () => {
    expect(detectTaskShapes(DEMO.nerObjects).spans?.spans).toHaveLength(3);
    expect(detectTaskShapes(DEMO.intent)).toMatchObject({ spans: null, text: { field: 'text' }, chips: [{ field: 'label' }] });
    expect(detectTaskShapes(DEMO.generation)).toMatchObject({ dialogue: { turns: { length: 2 } }, ranking: { entries: { length: 3 } } });
    expect(hasTaskShape(detectTaskShapes(DEMO.receipt))).toBe(false);
    expect(hasTaskShape(detectTaskShapes(DEMO.boxes))).toBe(false);
  });

  it('stays bounded and inert on hostile payloads', () => {
    const huge = detectTaskShapes({ text: 'A'.repeat(1_000_000), spans: Array.from({ length: 100_000 }, (_, i) => [i, i + 1, 'X']) });
    expect(huge.spans!.text.length).toBeLessThanOrEqual(200_000);
    expect(huge.spans!.spans.length).toBeLessThanOrEqual(500);
    // Fields past the first 200 are not read.
    // Counted through a proxy, not timed: reading every one of 50,001 fields is the cost this bound prevents.
    let reads = 0;
    const wide = new Proxy(
      { ...Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])), rating: 4 },
      {
        get: (target, key, receiver) => {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    expect(hasTaskShape(detectTaskShapes(wide))).toBe(false);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(250);
    for (const hostile of [
      null,
      42,
      'text',
      [],
      [null],
      { text: null },
      { text: {}, spans: 'x' },
      { dialogue: [null] },
      { ranking: [{}, {}] },
      { __proto__: { text: 'x' } },
    ]) {
      expect(() => detectTaskShapes(hostile)).not.toThrow();
    }
    expect(detectTaskShapes({ text: 'x', entities: [{ start: 0, end: 1, label: { toString: () => 'evil' } }] }).spans?.spans).toEqual([
      { start: 0, end: 1, label: '' },
    ]);
  });
});
