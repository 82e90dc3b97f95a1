import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import compact from './zod-compact-en';

/*
 * The compact locale the browser build uses says what zod's own English locale says. Each schema
 * below fails one way; both locales word its issues, and they must agree (formats the compact one
 * does not name excepted, and checked apart).
 */

class Box {}
const cases: [string, z.ZodType, unknown][] = [
  ['type', z.string(), 5],
  ['type null', z.number(), null],
  ['type array', z.object({}), []],
  ['type NaN', z.number(), NaN],
  ['type Infinity', z.number(), Infinity],
  ['type class', z.string(), new Box()],
  ['literal', z.literal('a'), 'b'],
  ['enum', z.enum(['a', 'b']), 'c'],
  ['too big string', z.string().max(2), 'abc'],
  ['too big number', z.number().lt(2), 3],
  ['too big array exact', z.array(z.number()).length(1), [1, 2]],
  ['too small number', z.number().min(2), 1],
  ['too small string', z.string().min(2), 'a'],
  ['too small exclusive', z.number().gt(2), 2],
  ['bigint', z.bigint().max(2n), 3n],
  ['regex', z.string().regex(/^a$/), 'b'],
  ['starts', z.string().startsWith('x'), 'b'],
  ['ends', z.string().endsWith('x'), 'b'],
  ['includes', z.string().includes('x'), 'b'],
  ['email', z.email(), 'b'],
  ['url', z.url(), 'b'],
  ['uuid', z.uuid(), 'b'],
  ['datetime', z.iso.datetime(), 'b'],
  ['date', z.iso.date(), 'b'],
  ['multiple', z.number().multipleOf(3), 4],
  ['unrecognized', z.strictObject({ a: z.number() }), { a: 1, Daily: 2 }],
  ['unrecognized two', z.strictObject({}), { a: 1, b: 2 }],
  ['key', z.record(z.string().max(1), z.number()), { ab: 1 }],
  ['union', z.union([z.string(), z.number()]), true],
  ['discriminated', z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]), { k: 'c' }],
  ['element', z.map(z.string(), z.number()), new Map([['a', 'b']])],
];

const messages = (schema: z.ZodType, input: unknown, locale: { localeError: z.core.$ZodErrorMap }) => {
  z.config(locale);
  try {
    const result = schema.safeParse(input);
    if (result.success) throw new Error('the case was meant to fail');
    return result.error.issues.map((issue) => issue.message);
  } finally {
    z.config(z.locales.en());
  }
};

describe('compact English zod messages (browser build)', () => {
  it.each(cases)('%s: the same words as zod', (_name, schema, input) => {
    expect(messages(schema, input, compact() as never)).toEqual(messages(schema, input, z.locales.en()));
  });

  it('a format it does not name reads by its raw name', () => {
    expect(messages(z.cuid2(), '!', compact() as never)).toEqual(['Invalid cuid2']);
  });
});
