import { describe, expect, it } from 'vitest';
import { subscriptionName, subscriptionNames } from './subscription-names';
import type { Names } from './names';

const connection = {
  subscriptions: [
    { id: 'sub_sim_retail', kind: 'simulated' as const, label: 'Retail shelf audits' },
    { id: 'sub_sim_support', kind: 'simulated' as const, label: '  ' },
    { id: 'sub_a', kind: 'simulated' as const, label: 'Shelves' },
    { id: 'sub_b', kind: 'simulated' as const, label: 'Shelves' },
  ],
};
const names: Names = { tasks: new Map(), frontiers: new Map(), verticals: new Map([['v-1', 'Support dialogues']]) };

describe('subscriptionName', () => {
  it('reads as the connection’s name, else the vertical’s, else a short form of the ID', () => {
    expect(subscriptionName(connection, 'sub_sim_retail')).toBe('Retail shelf audits');
    // A blank label is no name.
    expect(subscriptionName(connection, 'sub_sim_support', 'v-1', names)).toBe('Support dialogues');
    expect(subscriptionName(connection, 'sub_sim_support', 'v-unknown', names)).toBe('sub_sim_support');
    expect(subscriptionName(connection, '3f2a9c1e-1111-4222-8333-444455556666')).toBe('3f2a9c1e…');
  });
});

describe('subscriptionNames', () => {
  it('names each subscription once, and gives two that read alike their IDs', () => {
    const named = subscriptionNames(connection, ['sub_sim_retail', 'sub_a', 'sub_b', 'sub_a', 'sub_other']);
    expect([...named]).toEqual([
      ['sub_sim_retail', 'Retail shelf audits'],
      ['sub_a', 'Shelves (sub_a)'],
      ['sub_b', 'Shelves (sub_b)'],
      ['sub_other', 'sub_other'],
    ]);
  });

  it('reads a long ID whole, and tells apart UUIDs whose short forms are the same', () => {
    expect(subscriptionName({ subscriptions: [] }, 'sub_hardening_books')).toBe('sub_hardening_books');
    const a = '3f2a9c1e-1111-4222-8333-444455556666';
    const b = '3f2a9c1e-9999-4222-8333-444455556666';
    expect([...subscriptionNames({ subscriptions: [] }, [a, b]).values()]).toEqual([`3f2a9c1e… (${a})`, `3f2a9c1e… (${b})`]);
  });

  it('uses the vertical a page knows the subscription delivers', () => {
    const named = subscriptionNames(connection, ['sub_sim_support'], (id) => (id === 'sub_sim_support' ? 'v-1' : undefined), names);
    expect(named.get('sub_sim_support')).toBe('Support dialogues');
  });
});
