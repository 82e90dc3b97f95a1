import { describe, expect, it } from 'vitest';
import {
  addReason,
  codeError,
  codeFromLabel,
  DEFAULT_REASONS,
  formatReason,
  MAX_CODES,
  MAX_REASON_CHARS,
  moveReason,
  NO_REASON,
  OTHER,
  parseReason,
  parseReasonList,
  removeReason,
  renameReason,
} from './model';

const codes = DEFAULT_REASONS.map((r) => r.code);

describe('formatReason: the wire reason, code first', () => {
  it('writes the code, then the trimmed text', () => {
    expect(formatReason('missing_object', '  tail not boxed \n')).toBe('missing_object: tail not boxed');
    expect(formatReason('missing_object', '')).toBe('missing_object');
    expect(formatReason('missing_object', '   ')).toBe('missing_object');
    expect(formatReason(null, '  blurry ')).toBe('blurry');
    expect(formatReason(null, '  ')).toBe('');
  });

  it('keeps the whole within the contract’s limit, cutting the text and never the code', () => {
    expect(MAX_REASON_CHARS).toBe(2000);
    const long = formatReason('wrong_label', 'x'.repeat(5000));
    expect(long).toHaveLength(MAX_REASON_CHARS);
    expect(long.startsWith('wrong_label: xxx')).toBe(true);
    expect(formatReason('wrong_label', 'x'.repeat(2000 - 'wrong_label: '.length))).toHaveLength(2000);
    expect(formatReason(null, 'y'.repeat(2001))).toHaveLength(2000);
    expect(formatReason('abc', 'hello world', 8)).toBe('abc: hel');
    expect(formatReason('abcdefgh', 'hello', 8)).toBe('abcdefgh');
    // Text cut where it ends in spaces loses them, and a surrogate pair is never split.
    expect(formatReason('abc', 'ab   cd', 8)).toBe('abc: ab');
    expect(formatReason('abc', 'ab😀', 8)).toBe('abc: ab');
  });

  it('never sends, stores or exports an API key or a JWT pasted into the text by mistake', () => {
    const key = `dds_live_sk_${'A1b2C3d4'.repeat(4)}`;
    const jwt = `${btoa('{"alg":"HS256","typ":"JWT"}').replace(/=+$/, '')}.${btoa('{"sub":"org_demo"}').replace(/=+$/, '')}.c2lnbmF0dXJl`;
    expect(formatReason('wrong_label', `cat, not dog ${key}`)).toBe('wrong_label: cat, not dog [redacted key]');
    expect(formatReason(null, `token was ${jwt} sorry`)).toBe('token was [redacted token] sorry');
    expect(formatReason('wrong_label', key)).toBe('wrong_label: [redacted key]');
  });
});

describe('parseReason: a stored or sent reason back into code and text', () => {
  it('finds a known code alone or before a colon', () => {
    expect(parseReason('missing_object: tail not boxed', codes)).toEqual({ code: 'missing_object', text: 'tail not boxed' });
    expect(parseReason('missing_object', codes)).toEqual({ code: 'missing_object', text: '' });
    expect(parseReason('  duplicate:  same as 12 ', codes)).toEqual({ code: 'duplicate', text: 'same as 12' });
  });

  it('round-trips what formatReason writes', () => {
    for (const code of codes) {
      expect(parseReason(formatReason(code, 'a: b'), codes)).toEqual({ code, text: 'a: b' });
      expect(parseReason(formatReason(code, ''), codes)).toEqual({ code, text: '' });
    }
  });

  it('calls a reason that starts with no known code "other", and none at all "no reason"', () => {
    expect(parseReason('blurry photo', codes)).toEqual({ code: OTHER, text: 'blurry photo' });
    expect(parseReason('wrong: label', codes)).toEqual({ code: OTHER, text: 'wrong: label' });
    // A prefix of a code is not the code.
    expect(parseReason('box: loose', ['box_too_loose'])).toEqual({ code: OTHER, text: 'box: loose' });
    expect(parseReason('box_too_loose_x', ['box_too_loose'])).toEqual({ code: OTHER, text: 'box_too_loose_x' });
    expect(parseReason('missing_object: x', [])).toEqual({ code: OTHER, text: 'missing_object: x' });
    expect(parseReason('', codes)).toEqual({ code: NO_REASON, text: '' });
    expect(parseReason('  ', codes)).toEqual({ code: NO_REASON, text: '' });
    expect(parseReason(null, codes)).toEqual({ code: NO_REASON, text: '' });
    expect(parseReason(undefined, codes)).toEqual({ code: NO_REASON, text: '' });
  });
});

describe('the stored list', () => {
  it('has sensible defaults, each a valid code', () => {
    expect(DEFAULT_REASONS.slice(0, 6)).toEqual([
      { code: 'wrong_label', label: 'Wrong label' },
      { code: 'missing_object', label: 'Missing object' },
      { code: 'box_too_loose', label: 'Box too loose' },
      { code: 'duplicate', label: 'Duplicate' },
      { code: 'unreadable', label: 'Unreadable' },
      { code: 'off_topic', label: 'Off-topic' },
    ]);
    expect(parseReasonList(DEFAULT_REASONS)).toEqual(DEFAULT_REASONS);
  });

  it('refuses a damaged document (the caller falls back to the defaults)', () => {
    for (const bad of [
      null,
      undefined,
      'wrong_label',
      {},
      [],
      [{ code: 'wrong_label' }],
      [{ code: 'Wrong Label', label: 'x' }],
      [{ code: '1st', label: 'x' }],
      [{ code: 'other', label: 'Other' }],
      [{ code: 'a', label: '   ' }],
      [
        { code: 'a', label: 'A' },
        { code: 'a', label: 'B' },
      ],
      Array.from({ length: MAX_CODES + 1 }, (_, i) => ({ code: `c${i}`, label: `C ${i}` })),
    ]) {
      expect(parseReasonList(bad), JSON.stringify(bad)?.slice(0, 80)).toBeNull();
    }
  });

  it('checks new codes', () => {
    expect(codeError('low_quality')).toBeNull();
    expect(codeError('')).toMatch(/Enter a code/);
    expect(codeError('Low')).toMatch(/snake_case/);
    expect(codeError('low-quality')).toMatch(/snake_case/);
    expect(codeError('_low')).toMatch(/snake_case/);
    expect(codeError('a'.repeat(33))).toMatch(/at most 32/);
    expect(codeError(NO_REASON)).toMatch(/reserved/);
    expect(codeError('duplicate', codes)).toMatch(/already/);
    expect(codeFromLabel('Box too loose!')).toBe('box_too_loose');
    expect(codeFromLabel(' Off-topic ')).toBe('off_topic');
    expect(codeFromLabel('Étiquette fausse')).toBe('etiquette_fausse');
    expect(codeFromLabel('3D mismatch')).toBe('d_mismatch');
  });

  it('edits: add, rename, move, remove', () => {
    const list = DEFAULT_REASONS.slice(0, 3);
    expect(addReason(list, { code: 'blurry', label: ' Blurry ' }).at(-1)).toEqual({ code: 'blurry', label: 'Blurry' });
    expect(addReason(list, { code: 'wrong_label', label: 'Again' })).toEqual(list);
    expect(addReason(list, { code: 'x', label: '' })).toEqual(list);
    expect(renameReason(list, 'missing_object', ' Object missing ')[1]).toEqual({ code: 'missing_object', label: 'Object missing' });
    expect(renameReason(list, 'missing_object', '  ')).toEqual(list);
    expect(moveReason(list, 'missing_object', -1).map((r) => r.code)).toEqual(['missing_object', 'wrong_label', 'box_too_loose']);
    expect(moveReason(list, 'missing_object', 1).map((r) => r.code)).toEqual(['wrong_label', 'box_too_loose', 'missing_object']);
    expect(moveReason(list, 'wrong_label', -1)).toEqual(list);
    expect(moveReason(list, 'box_too_loose', 1)).toEqual(list);
    expect(removeReason(list, 'wrong_label').map((r) => r.code)).toEqual(['missing_object', 'box_too_loose']);
    expect(removeReason(list.slice(0, 1), 'wrong_label')).toEqual(list.slice(0, 1));
  });
});
