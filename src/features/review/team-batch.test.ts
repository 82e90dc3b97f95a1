import { describe, expect, it } from 'vitest';
import { reviewSearchSchema } from './search';
import { parseBatch, queueFiltersOf, toTeamBatch } from './team-batch';

describe('the team batch kept in the store', () => {
  const batch = toTeamBatch(
    {
      id: 'b1',
      subscription_id: 'sub',
      member: { id: 'm1', email: 'a@team' },
      taken_at: '2026-01-01T10:00:00Z',
      expires_at: '2026-01-01T10:10:00Z',
      idle_seconds: 600,
      hold: { held: 1, limit: 200 },
      items: [{ family: 'data', item_id: 'i1', seq: 1, payload: {}, price_micros: 10 }],
    },
    { quality_max: 0.6 },
  );

  it('reads back what it wrote, and nothing of another shape', () => {
    expect(parseBatch(JSON.parse(JSON.stringify(batch)))).toEqual(batch);
    expect(batch).toMatchObject({ batchId: 'b1', itemIds: ['i1'], lost: [], renewedAt: null });
    expect(parseBatch(null)).toBeNull();
    expect(parseBatch({ ...batch, itemIds: 'i1' })).toBeNull();
    expect(parseBatch({ ...batch, renewedAt: 5 })).toBeNull();
    expect(batch.filters).toBe('{"quality_max":0.6}');
    // Stored before batches kept their filters: taken under none.
    const { filters: _filters, ...older } = batch;
    expect(parseBatch(older)?.filters).toBe('{}');
  });

  it('takes the items view’s filters in the queue’s terms, leaving out the decision state and text', () => {
    const search = reviewSearchSchema.parse({ quality_max: 0.6, task: '1002,1003', state: 'new', q: 'cat' });
    expect(queueFiltersOf(search)).toEqual({ quality_max: 0.6, task: '1002,1003' });
    expect(queueFiltersOf(reviewSearchSchema.parse({}))).toBeUndefined();
  });
});
