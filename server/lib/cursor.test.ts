import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, filterFingerprint } from './cursor';

const state = fc.record({
  subscriptionId: fc.string({ minLength: 1, maxLength: 40 }),
  filters: fc.string({ maxLength: 60 }),
  after: fc.nat(),
});

describe('cursor codec', () => {
  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(state, fc.string({ minLength: 8 }), (s, secret) => {
        expect(decodeCursor(secret, encodeCursor(secret, s), s)).toEqual(s);
      }),
    );
  });

  it('rejects any single-character change', () => {
    fc.assert(
      fc.property(state, fc.nat(), fc.constantFrom(...'ABCabc012_-.'), (s, position, replacement) => {
        const cursor = encodeCursor('secret-1', s);
        const index = position % cursor.length;
        fc.pre(cursor[index] !== replacement);
        const altered = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
        expect(decodeCursor('secret-1', altered, s)).toBeNull();
      }),
    );
  });

  it('rejects another secret, another subscription and other filters', () => {
    fc.assert(
      fc.property(state, fc.string({ minLength: 1 }), (s, other) => {
        const cursor = encodeCursor('secret-1', s);
        expect(decodeCursor('secret-2', cursor, s)).toBeNull();
        fc.pre(other !== s.subscriptionId && other !== s.filters);
        expect(decodeCursor('secret-1', cursor, { ...s, subscriptionId: other })).toBeNull();
        expect(decodeCursor('secret-1', cursor, { ...s, filters: other })).toBeNull();
      }),
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(decodeCursor('secret', text, { subscriptionId: 's', filters: 'f' })).toBeNull();
      }),
    );
  });

  it('fingerprints filters independently of their order', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[0-9]{1,4}$/), { minLength: 1 }), (ids) => {
        expect(filterFingerprint([...ids].reverse(), undefined)).toBe(filterFingerprint(ids, undefined));
        expect(filterFingerprint(ids, undefined)).not.toBe(filterFingerprint(undefined, ids));
      }),
    );
  });
});
