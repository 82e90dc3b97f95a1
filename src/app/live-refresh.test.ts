import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryRefreshers, refreshesFor } from './live-refresh';

describe('what a change on the hub stream refreshes', () => {
  it('maps each kind of change to its refreshes, and every change to the audit page', () => {
    expect([...refreshesFor({ action: 'v1.adopt' })].sort()).toEqual(['audit', 'budgets', 'decisions', 'holds', 'lots', 'votes']);
    expect([...refreshesFor({ action: 'decision.send' })]).toContain('decisions');
    expect([...refreshesFor({ action: 'vote.dispute' })].sort()).toEqual(['audit', 'decisions', 'votes']);
    expect([...refreshesFor({ action: 'lot.update' })].sort()).toEqual(['audit', 'lots']);
    expect([...refreshesFor({ action: 'v1.pull' })].sort()).toEqual(['audit', 'inbox', 'leases']);
    expect([...refreshesFor({ action: 'hold.release' })].sort()).toEqual(['audit', 'budgets', 'decisions', 'holds']);
    expect([...refreshesFor({ action: 'settings.update' })].sort()).toEqual(['audit', 'settings']);
    expect([...refreshesFor({ action: 'lease.take' })].sort()).toEqual(['audit', 'leases']);
    expect([...refreshesFor({ action: 'session.sign_in' })]).toEqual(['audit']);
  });

  it('invalidates the hub queries under their keys, and only those', async () => {
    const client = new QueryClient();
    client.setQueryData(['hub', 'lots'], 1);
    client.setQueryData(['hub', 'budgets'], 1);
    client.setQueryData(['hub', 'members'], 1);
    queryRefreshers(client).lots!();
    expect(client.getQueryState(['hub', 'lots'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['hub', 'budgets'])?.isInvalidated).toBe(false);
    queryRefreshers(client).team!();
    expect(client.getQueryState(['hub', 'members'])?.isInvalidated).toBe(true);
  });
});
