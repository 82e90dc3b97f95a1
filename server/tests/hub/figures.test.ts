import { describe, expect, it } from 'vitest';
import { reviewerFigures } from '../../hub/overlap/figures';

/* Reviewers' figures from votes, pure: pace without breaks, acceptance, agreement with the team. */

describe('reviewers’ figures', () => {
  it('counts items per member and day; pace leaves breaks out; agreement only over items the team decided', () => {
    const day = Date.UTC(2031, 0, 30, 9);
    const votes = [
      { member_id: 'a', key: 'i1', vote: 'adopt' as const, first_at: day },
      { member_id: 'a', key: 'i2', vote: 'dispute' as const, first_at: day + 30_000 },
      { member_id: 'a', key: 'i3', vote: 'adopt' as const, first_at: day + 90_000 },
      // An hour's break, then one more item: the break is not work.
      { member_id: 'a', key: 'i4', vote: 'adopt' as const, first_at: day + 3_690_000 },
      { member_id: 'a', key: 'i5', vote: 'adopt' as const, first_at: Date.UTC(2031, 0, 31, 9) },
    ];
    const team = new Map([
      ['i1', 'adopt' as const],
      ['i2', 'adopt' as const],
    ]);
    const rows = reviewerFigures(votes, team);
    expect(rows.map((r) => r.day)).toEqual(['all', '2031-01-31', '2031-01-30']);
    const first = rows.find((r) => r.day === '2031-01-30')!;
    // Gaps 30 s and 60 s are work (the hour is a break): 2 items in 90 s → 80 an hour, median 45 s.
    expect(first).toMatchObject({ items: 4, adopts: 3, acceptance: 0.75, seconds_per_item: 45, decided: 2, agreement_with_team: 0.5 });
    expect(first.items_per_hour).toBeCloseTo(80, 10);
    expect(rows.find((r) => r.day === '2031-01-31')).toMatchObject({ items: 1, items_per_hour: null, seconds_per_item: null, agreement_with_team: null });
    expect(rows[0]).toMatchObject({ items: 5, adopts: 4 });
  });
});
