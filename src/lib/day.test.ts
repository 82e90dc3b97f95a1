import { describe, expect, it } from 'vitest';
import { dayOf, ISO_DAY } from './day';

describe('dayOf', () => {
  it('takes the day of an ISO timestamp as written, with or without a zone', () => {
    expect(dayOf('2026-10-01T23:59:59.999Z')).toBe('2026-10-01');
    expect(dayOf('2026-09-01T00:09:00')).toBe('2026-09-01');
    expect(dayOf('2026-12-31')).toBe('2026-12-31');
  });

  it('reads other timestamps a browser can parse, and names what it cannot', () => {
    expect(dayOf('Thu, 01 Oct 2026 12:00:00 GMT')).toBe('2026-10-01');
    expect(dayOf('yesterday')).toBe('unknown');
    expect(dayOf('')).toBe('unknown');
  });
});

describe('ISO_DAY', () => {
  it('matches a whole day only', () => {
    expect(ISO_DAY.test('2026-10-01')).toBe(true);
    expect(ISO_DAY.test('2026-10-01T00:00:00Z')).toBe(false);
    expect(ISO_DAY.test('2026-1-01')).toBe(false);
  });
});
