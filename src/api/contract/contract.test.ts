import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitParam } from './limits';
import { microsToUsd, usdToMicros } from './money';
import { errorBodySchema } from './errors';
import { liveFeedbackResponseSchema, livePullResponseSchema, optionalReceiptSchema, simulatedFeedbackResponseSchema, usageResponseSchema } from './responses';
import { liveSubmissionSchema, receiptSchema, simulatedItemSchema } from './resources';
import { API_KEY_PATTERN } from './keys';

const numericText = fc.stringMatching(/^[0-9]{1,12}$/);
const json = fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }));

const submission = fc.record({
  submission_id: numericText,
  task_id: numericText,
  frontier_id: numericText,
  data: json,
  quality_score: fc.double({ min: 0, max: 1, noNaN: true }),
  quality_grade: fc.constantFrom('A', 'B', 'C', 'D'),
  source: fc.string(),
  created_at: fc.constant('2026-09-01T00:00:00'),
  consumer_feedback: fc.constantFrom(null, 'adopt', 'dispute'),
});

const receipt = fc.record({
  receipt_id: fc.string({ minLength: 1 }),
  subscription_id: fc.string({ minLength: 1 }),
  kind: fc.constantFrom('pull', 'adopt'),
  submission_id: fc.option(fc.string(), { nil: null }),
  item_id: fc.option(fc.string(), { nil: null }),
  quantity: fc.nat(),
  amount_usd: fc.integer({ min: 0, max: 10_000_000 }).map(microsToUsd),
  created_at: fc.constant('2026-10-01T00:00:00.000Z'),
});

describe('live pull response forms', () => {
  it('normalise both forms of any page to the same shape', () => {
    fc.assert(
      fc.property(
        fc.array(submission, { maxLength: 5 }),
        fc.boolean(),
        fc.option(fc.string({ minLength: 1 }), { nil: null }),
        fc.option(receipt, { nil: null }),
        (items, hasMore, cursor, rcpt) => {
          const paging = { count: items.length, has_more: hasMore, next_cursor: cursor ?? '', receipt: rcpt ?? {} };
          const envelope = livePullResponseSchema.parse({ success: true, errorCode: null, errorMessage: null, data: { items, ...paging } });
          const flat = livePullResponseSchema.parse({ success: true, data: items, ...paging });
          expect(flat).toEqual(envelope);
          expect(envelope.items).toHaveLength(items.length);
          expect(envelope.nextCursor).toBe(cursor);
          expect(envelope.receipt).toEqual(rcpt);
        },
      ),
    );
  });

  it('rejects a page whose item has a field of the wrong type, wherever it is', () => {
    fc.assert(
      fc.property(submission, fc.constantFrom('submission_id', 'quality_score', 'data', 'consumer_feedback'), (item, field) => {
        const broken = { ...item, [field]: field === 'quality_score' ? 'high' : 42 };
        expect(liveSubmissionSchema.safeParse(broken).success).toBe(false);
        expect(livePullResponseSchema.safeParse({ data: [broken], count: 1, has_more: false, next_cursor: '' }).success).toBe(false);
      }),
    );
  });
});

describe('tolerant records', () => {
  it('keeps fields a server adds, and unknown receipt kinds', () => {
    fc.assert(
      fc.property(
        receipt,
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((k) => !(k in {}) && !/^(receipt_id|subscription_id|kind|submission_id|item_id|quantity|amount_usd|created_at)$/.test(k)),
        fc.jsonValue(),
        (r, extraKey, extraValue) => {
          const withExtra = { ...r, kind: 'refund', [extraKey]: extraValue };
          const parsed = usageResponseSchema.parse({ data: [withExtra], count: 1 });
          expect(parsed.data[0]).toHaveProperty(extraKey);
          expect(parsed.data[0]!.kind).toBe('refund');
        },
      ),
    );
  });

  it('keeps unknown fields on every response, in both live-pull forms, although the OpenAPI document no longer writes `additionalProperties: {}`', () => {
    const extra = { added_by_server: { nested: [1] } };
    const item = {
      submission_id: '1',
      task_id: '2',
      frontier_id: '3',
      data: {},
      quality_score: 0.5,
      quality_grade: 'A',
      source: 's',
      created_at: 't',
      consumer_feedback: null,
    };
    const envelope = livePullResponseSchema.parse({
      success: true,
      errorCode: null,
      errorMessage: null,
      ...extra,
      data: { items: [{ ...item, ...extra }], count: 1, has_more: false, next_cursor: '', receipt: {}, ...extra },
    });
    expect(envelope.items[0]).toMatchObject(extra);
    const flat = livePullResponseSchema.parse({ success: true, data: [{ ...item, ...extra }], count: 1, has_more: true, next_cursor: 'c', ...extra });
    expect(flat).toMatchObject({ hasMore: true, nextCursor: 'c' });
    expect(flat.items[0]).toMatchObject(extra);
    expect(usageResponseSchema.parse({ data: [], count: 0, ...extra })).toMatchObject(extra);
    expect(liveFeedbackResponseSchema.parse({ ok: true, submission_id: '1', feedback: 'adopt', ...extra })).toMatchObject(extra);
    expect(simulatedFeedbackResponseSchema.parse({ ok: true, item_id: 'i', status: 'adopted', ...extra })).toMatchObject(extra);
    expect(errorBodySchema.parse({ success: false, errorCode: 'SOMETHING_NEW', errorMessage: 'm', ...extra })).toMatchObject(extra);
  });

  it('reads an empty receipt as null', () => {
    expect(optionalReceiptSchema.parse({})).toBeNull();
    expect(optionalReceiptSchema.parse(null)).toBeNull();
    expect(optionalReceiptSchema.parse(undefined)).toBeNull();
    expect(receiptSchema.safeParse({ receipt_id: 'r' }).success).toBe(false);
  });

  it('rejects a simulated item whose price is text', () => {
    const item = {
      id: 'i',
      vertical_id: 'v',
      topic_id: 't',
      payload: {},
      quality_score: 1,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 1,
      unit_price_usd: 0.0125,
      created_at: 'x',
    };
    expect(simulatedItemSchema.safeParse(item).success).toBe(true);
    expect(simulatedItemSchema.safeParse({ ...item, unit_price_usd: '0.0125' }).success).toBe(false);
  });
});

describe('limits', () => {
  it('accepts exactly the integers in range, as text', () => {
    const schema = limitParam('livePull');
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (n) => {
        expect(schema.safeParse(String(n)).success).toBe(n >= 1 && n <= 200);
      }),
    );
    for (const bad of ['1.5', 'abc', '', '1e2', '+5', ' 5']) expect(schema.safeParse(bad).success).toBe(false);
    expect(schema.parse(undefined)).toBe(50);
  });
});

describe('money on the wire', () => {
  it('round-trips every micro amount through the wire number exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (micros) => {
        expect(usdToMicros(microsToUsd(micros))).toBe(micros);
      }),
    );
  });

  it('reads decimal text exactly, exponents included', () => {
    expect(usdToMicros(0.0125)).toBe(12_500);
    expect(usdToMicros(0.0037)).toBe(3_700);
    expect(usdToMicros(1e-6)).toBe(1);
    expect(usdToMicros(1.1)).toBe(1_100_000);
    expect(usdToMicros(0.1 + 0.2)).toBe(300_000);
    expect(usdToMicros(2.5e-7)).toBe(0);
    expect(usdToMicros(5e-7)).toBe(1);
    expect(usdToMicros(123456.789)).toBe(123_456_789_000);
  });
});

describe('key form', () => {
  it('accepts <service>_live_sk_ and 32 URL-safe characters only', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{32}$/), (tail) => {
        expect(API_KEY_PATTERN.test(`dds_live_sk_${tail}`)).toBe(true);
        expect(API_KEY_PATTERN.test(`dds_live_sk_${tail}x`)).toBe(false);
        expect(API_KEY_PATTERN.test(`dds_test_sk_${tail}`)).toBe(false);
      }),
    );
  });
});
