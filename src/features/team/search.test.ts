import { describe, expect, it } from 'vitest';
import { auditNextPage, auditSearchSchema, auditView } from './search';

describe('the audit page URL', () => {
  it('is newest first unless order=oldest, each order paging by its own bound', () => {
    expect(auditView(auditSearchSchema.parse({ action: 'lease.take', before: '120', after: '7' }))).toEqual({
      filters: { action: 'lease.take' },
      cursor: { order: 'desc', from: 120 },
    });
    expect(auditView(auditSearchSchema.parse({ order: 'oldest', before: '120', after: '7' })).cursor).toEqual({ order: 'asc', from: 7 });
    // A bad order is dropped, never an error page: newest first.
    expect(auditView(auditSearchSchema.parse({ order: 'sideways' })).cursor).toEqual({ order: 'desc', from: undefined });
  });

  it('goes to the next page in the same order with the same filters', () => {
    expect(auditNextPage({ member: 'mem_1' }, { order: 'desc' }, 51)).toEqual({ member: 'mem_1', before: 51 });
    expect(auditNextPage({ member: 'mem_1' }, { order: 'asc', from: 100 }, 200)).toEqual({ member: 'mem_1', order: 'oldest', after: 200 });
  });
});
