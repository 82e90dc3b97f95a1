import { describe, expect, it } from 'vitest';
import { parseSearch, stringifySearch } from './search-params';

describe('stringifySearch', () => {
  it('never writes a number that is no number (limit=NaN), and keeps every other value as it reads back', () => {
    expect(stringifySearch({ mode: 'new', limit: Number.NaN, run: true })).toBe('?mode=new&run=true');
    expect(stringifySearch({ limit: Number.POSITIVE_INFINITY })).toBe('');
    expect(stringifySearch({ limit: 0, tasks: '1002' })).toBe('?limit=0&tasks=1002');
    expect(parseSearch(stringifySearch({ limit: 50, mode: 'reread' }))).toEqual({ limit: 50, mode: 'reread' });
  });
});
