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
    // Gaps 30 s and 60 s are work (the hour is a break): 2 items in 90 s → 80 an hour, 45 s each.
    expect(first).toMatchObject({ items: 4, adopts: 3, acceptance: 0.75, seconds_per_item: 45, decided: 2, agreement_with_team: 0.5 });
    expect(first.items_per_hour).toBeCloseTo(80, 10);
    expect(rows.find((r) => r.day === '2031-01-31')).toMatchObject({ items: 1, items_per_hour: null, seconds_per_item: null, agreement_with_team: null });
    expect(rows[0]).toMatchObject({ items: 5, adopts: 4 });
  });

  it('gives the two pace figures from the same time: a burst of quick decisions does not make an item take a second while the hour holds 180', () => {
    const start = Date.UTC(2031, 1, 1, 9);
    // Three items a second apart (a bulk selection), then one after 58 s: 3 items in 60 s of work.
    const votes = [0, 1_000, 2_000, 60_000].map((at, i) => ({ member_id: 'b', key: `j${i}`, vote: 'adopt' as const, first_at: start + at }));
    const [all] = reviewerFigures(votes, new Map());
    expect(all!.items_per_hour).toBeCloseTo(180, 10);
    expect(all!.seconds_per_item).toBeCloseTo(20, 10);
    expect(3_600 / all!.seconds_per_item!).toBeCloseTo(all!.items_per_hour!, 10);
  });
});
