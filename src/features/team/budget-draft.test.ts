import { describe, expect, it } from 'vitest';
import type { HubBudgets } from '../../api/contract/hub-budgets';
import { draftOf, percentOf, readDraft, readLimit } from './budget-draft';

const none = { daily_micros: null, monthly_micros: null };
const stored: HubBudgets = {
  day: '2026-11-26',
  month: '2026-11',
  limits: {
    organization: { daily_micros: 50_000, monthly_micros: null },
    per_member: none,
    subscriptions: [{ subscription_id: 'sub_a', daily_micros: null, monthly_micros: 1_250_000 }],
    members: [],
  },
  spent: { organization: { day_micros: 0, month_micros: 0 }, outside: { day_micros: 0, month_micros: 0 }, subscriptions: [], members: [] },
  receipts: { synced_at: null, attempted_at: null, outcome: null },
};

describe('the hub budgets form', () => {
  it('reads a limit exactly into integer micro-USD, blank as no limit', () => {
    expect(readLimit('0.05')).toEqual({ micros: 50_000 });
    expect(readLimit('$1,250.000001')).toEqual({ micros: 1_250_000_001 });
    expect(readLimit('  ')).toEqual({ micros: null });
    expect(readLimit('0')).toEqual({ micros: 0 });
  });

  it('names what it cannot read: negative, too many decimals, over the hub’s bound, not a number', () => {
    expect(readLimit('-1')).toEqual({ error: 'A limit cannot be negative.' });
    expect(readLimit('0.0000001')).toEqual({ error: expect.stringMatching(/six decimals/) });
    expect(readLimit('1000000.000001')).toEqual({ error: 'At most $1,000,000.00 a period.' });
    expect(readLimit('1000000')).toEqual({ micros: 1_000_000_000_000 });
    expect(readLimit('five')).toEqual({ error: expect.stringMatching(/Enter an amount/) });
  });

  it('fills from what is stored and sends every limit back, rows without one left out', () => {
    const draft = draftOf(stored, ['sub_a', 'sub_b'], ['m1']);
    expect(draft).toEqual({
      organization: { daily: '0.05', monthly: '' },
      per_member: { daily: '', monthly: '' },
      'subscription:sub_a': { daily: '', monthly: '1.25' },
      'subscription:sub_b': { daily: '', monthly: '' },
      'member:m1': { daily: '', monthly: '' },
    });
    draft['member:m1'] = { daily: '0.01', monthly: '' };
    draft.organization.monthly = '3';
    expect(readDraft(draft)).toEqual({
      input: {
        organization: { daily_micros: 50_000, monthly_micros: 3_000_000 },
        per_member: none,
        subscriptions: [{ subscription_id: 'sub_a', daily_micros: null, monthly_micros: 1_250_000 }],
        members: [{ member_id: 'm1', daily_micros: 10_000, monthly_micros: null }],
      },
    });
  });

  it('sends nothing when any field is wrong, and says which', () => {
    const draft = draftOf(stored, ['sub_a'], []);
    draft['subscription:sub_a'] = { daily: '-0.5', monthly: '' };
    draft.per_member.monthly = '0.1234567';
    expect(readDraft(draft)).toEqual({
      errors: { 'subscription:sub_a daily': 'A limit cannot be negative.', 'per_member monthly': expect.stringMatching(/six decimals/) },
    });
  });

  it('counts spend against a limit in whole percent, rounded down', () => {
    expect(percentOf(49_999, 50_000)).toBe(99);
    expect(percentOf(50_000, 50_000)).toBe(100);
    expect(percentOf(75_000, 50_000)).toBe(150);
    expect(percentOf(10, 0)).toBe(100);
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(10, null)).toBeNull();
  });
});
