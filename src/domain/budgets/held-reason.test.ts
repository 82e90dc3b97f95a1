import { describe, expect, it } from 'vitest';
import { heldLimits } from './held-reason';

const held = (subscriptionId: string, spentMicros: number, level: 'organization' | 'subscription' = 'subscription', period: 'daily' | 'monthly' = 'daily') => ({
  subscriptionId,
  heldBy: { level, period, limitMicros: 10_000, spentMicros, at: 0 },
});

describe('the limits that hold decisions', () => {
  it('names each limit once, with the most it was found spent, by the subscription’s name', () => {
    const names = new Map([['sub_retail', 'Retail shelf audits']]);
    const nameOf = (id: string) => names.get(id) ?? id;
    expect(heldLimits([held('sub_retail', 0), held('sub_retail', 10_000), held('sub_retail', 4_500)], nameOf)).toEqual([
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
      ),
    ).toEqual([
      'Retail shelf audits daily limit $0.01 (spent $0.001)',
      'sub_other daily limit $0.01 (spent $0.002)',
      'Retail shelf audits monthly limit $0.01 (spent $0.003)',
      'organization daily limit $0.01 (spent $0.006)',
    ]);
  });
});
