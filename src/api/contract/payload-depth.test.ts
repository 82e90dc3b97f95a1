import { describe, expect, it } from 'vitest';
import { isValidId } from './ids';
import { jsonTextTooDeep, MAX_PAYLOAD_DEPTH, tooDeepAt } from './payload-depth';

const nestedText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('payload depth', () => {
  it('allows the limit and refuses one level more, as a value and as text', () => {
    expect(tooDeepAt(JSON.parse(nestedText(MAX_PAYLOAD_DEPTH)))).toBeNull();
    expect(tooDeepAt(JSON.parse(nestedText(MAX_PAYLOAD_DEPTH + 1)))).toHaveLength(MAX_PAYLOAD_DEPTH);
    expect(jsonTextTooDeep(nestedText(MAX_PAYLOAD_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nestedText(MAX_PAYLOAD_DEPTH + 1))).toBe(true);
  });

  it('names the path to the first level past the limit', () => {
    expect(tooDeepAt({ a: [{ b: { c: 1 } }] }, 3)).toEqual(['a', 0, 'b']);
    expect(tooDeepAt({ a: [{ b: 1 }] }, 3)).toBeNull();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonTextTooDeep(JSON.stringify({ s: '[[[[[[', t: 'say \\"[[[[' }), 2)).toBe(false);
    expect(jsonTextTooDeep('{"a":{"b":{}}}', 2)).toBe(true);
  });

  it('measures 100,000 levels without recursion', () => {
    expect(jsonTextTooDeep(nestedText(100_000))).toBe(true);
    expect(tooDeepAt(JSON.parse(nestedText(100_000)))).toHaveLength(MAX_PAYLOAD_DEPTH);
  });
});

describe('IDs', () => {
  it('takes letters, digits, . _ : - and refuses anything else, . and ..', () => {
    for (const id of ['101', 'sub_live_streets', 'a.b:c-d', '..a', 'urn:x:1']) expect(isValidId(id), id).toBe(true);
    for (const id of ['', '.', '..', 'a/b', 'a b', 'a%2F', 'é', 'a?b', 'a#b', 'a\u0000']) expect(isValidId(id), id).toBe(false);
  });
});
