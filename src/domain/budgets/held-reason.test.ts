import { describe, expect, it } from 'vitest';
import { heldLimits } from './held-reason';

// Noon, local time: a day before and after it are other days, in any zone.
const NOW = new Date(2026, 11, 4, 12).getTime();
const DAY = 24 * 60 * 60 * 1000;
const held = (
  subscriptionId: string,
  spentMicros: number,
  level: 'organization' | 'subscription' = 'subscription',
  period: 'daily' | 'monthly' = 'daily',
  at: number | null = NOW,
) => ({
  subscriptionId,
  heldBy: { level, period, limitMicros: 10_000, spentMicros, ...(at === null ? {} : { at }) },
});

describe('the limits that hold decisions', () => {
  it('names each limit once, with the most it was found spent, by the subscription’s name', () => {
    const names = new Map([['sub_retail', 'Retail shelf audits']]);
    const nameOf = (id: string) => names.get(id) ?? id;
    expect(heldLimits([held('sub_retail', 0), held('sub_retail', 10_000), held('sub_retail', 4_500)], nameOf, NOW)).toEqual([
      'Retail shelf audits daily limit $0.01 (spent $0.01)',
    ]);
    // Another subscription's, another period's and the organization's are limits of their own; two subscriptions share the organization's.
    expect(
      heldLimits(
        [
          held('sub_retail', 1_000),
          held('sub_other', 2_000),
          held('sub_retail', 3_000, 'subscription', 'monthly'),
          held('sub_retail', 5_000, 'organization'),
          held('sub_other', 6_000, 'organization'),
        ],
        nameOf,
        NOW,
      ),
    ).toEqual([
      'Retail shelf audits daily limit $0.01 (spent $0.001)',
      'sub_other daily limit $0.01 (spent $0.002)',
      'Retail shelf audits monthly limit $0.01 (spent $0.003)',
      'organization daily limit $0.01 (spent $0.006)',
    ]);
  });

  it('tells a limit’s holds of another day apart, each with that day’s spend and its date', () => {
    const yesterday = NOW - DAY;
    const day = new Date(yesterday).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
    const lastMonth = new Date(2026, 10, 20, 12).getTime();
    const month = new Date(lastMonth).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
    expect(
      heldLimits(
        [
          held('sub_retail', 9_000, 'subscription', 'daily', yesterday),
          held('sub_retail', 2_000),
          held('sub_retail', 3_000),
          held('sub_retail', 8_000, 'subscription', 'monthly', lastMonth),
        ],
        (id) => id,
        NOW,
      ),
    ).toEqual([
      `sub_retail daily limit $0.01 (spent $0.009 on ${day})`,
      'sub_retail daily limit $0.01 (spent $0.003)',
      `sub_retail monthly limit $0.01 (spent $0.008 in ${month})`,
    ]);
    // A device clock a little behind the gate's time (a hold at 00:10, the device at 23:55 the day
    // before) dates nothing: that hold is read as the device's day's, one line with the day's others.
    const justAfterMidnight = new Date(2026, 11, 5, 0, 10).getTime();
    const deviceNow = justAfterMidnight - 15 * 60_000;
    expect(
      heldLimits(
        [held('sub_retail', 2_000, 'subscription', 'daily', justAfterMidnight), held('sub_retail', 1_000, 'subscription', 'daily', deviceNow - 60_000)],
        (id) => id,
        deviceNow,
      ),
    ).toEqual(['sub_retail daily limit $0.01 (spent $0.002)']);
    // A hold kept before holds had a time names no day and reads as today's, one line with them.
    expect(heldLimits([held('sub_retail', 1_000, 'subscription', 'daily', null), held('sub_retail', 4_000)], (id) => id, NOW)).toEqual([
      'sub_retail daily limit $0.01 (spent $0.004)',
    ]);
  });
});
