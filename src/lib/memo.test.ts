import { describe, expect, it } from 'vitest';
import { lastResult, WeakMemo } from './memo';

describe('WeakMemo', () => {
  it('computes once per key, and hands the value computed before to the next computation', () => {
    const memo = new WeakMemo<object, string>();
    const a = {};
    const b = {};
    const seen: (string | undefined)[] = [];
    const compute = (key: object, last: string | undefined) => {
      seen.push(last);
      return key === a ? 'a' : 'b';
    };
    expect(memo.of(a, compute)).toBe('a');
    expect(memo.of(a, compute)).toBe('a');
    expect(memo.of(b, compute)).toBe('b');
    expect(seen).toEqual([undefined, 'a']);
    expect(memo.has(b) && memo.get(b)).toBe('b');
  });
});

describe('lastResult', () => {
  it('computes again only when an argument changed', () => {
    let calls = 0;
    const twice = lastResult((x: number, y: object) => {
      calls++;
      return { sum: x * 2, y };
    });
    const y = {};
    const first = twice(1, y);
    expect(twice(1, y)).toBe(first);
    expect(twice(2, y)).not.toBe(first);
    expect(twice(2, {})).toEqual({ sum: 4, y: {} });
    expect(calls).toBe(3);
  });
});
