import { describe, expect, it } from 'vitest';
import { parseSearch, stringifySearch } from '../../lib/search-params';
import { pageSizeError, reviewSearchSchema } from './search';

const read = (search: string) => reviewSearchSchema.parse(parseSearch(search));

describe('review search in the URL', () => {
  it('writes IDs as they are and reads them back as text', () => {
    const state = { mode: 'reread' as const, run: true, cursor: 'c2lnbmVk.1', tasks: '1002,1003', campaigns: '7', limit: 25 };
    const written = stringifySearch(state);
    expect(written).toBe('?mode=reread&run=true&cursor=c2lnbmVk.1&tasks=1002%2C1003&campaigns=7&limit=25');
    expect(read(written)).toEqual(state);
  });

  it('keeps a hand-typed numeric filter (the router reads ?tasks=1002 as a number)', () => {
    expect(read('?mode=reread&tasks=1002&campaigns=42').tasks).toBe('1002');
    expect(read('?mode=reread&tasks=1002&campaigns=42').campaigns).toBe('42');
  });

  it('still reads links written with quoted text', () => {
    expect(read('?mode=reread&tasks=%221002%22').tasks).toBe('1002');
  });

  it('falls back to defaults on bad values instead of failing, but keeps a page size as written', () => {
    expect(read('?mode=sideways&limit=9999&tasks=1002;drop&run=maybe')).toEqual({ mode: 'new', limit: 9999 });
    expect(read('?mode=reread')).toMatchObject({ limit: 50 });
  });

  it('says which page sizes are valid: whole numbers from 1 to 200', () => {
    for (const ok of [1, 50, 200]) expect(pageSizeError(ok)).toBeNull();
    for (const bad of [0, 201, 2.5, 500, Number.NaN]) expect(pageSizeError(bad)).toBe('Page size must be a whole number from 1 to 200.');
    expect(pageSizeError(read('?limit=500').limit)).not.toBeNull();
    // No number at all: the default (the address is rewritten with it, never with NaN).
    expect(read('?limit=abc').limit).toBe(50);
    expect(read('?limit=Infinity').limit).toBe(50);
  });
});
