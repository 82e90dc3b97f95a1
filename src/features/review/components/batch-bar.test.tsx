import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import type { TeamBatch } from '../team-batch';
import { BatchBar } from './batch-bar';
import type { TeamBatchState } from './use-team-batch';

/*
 * The batch line in words when the hub's per-member cap (server/hub/store/leases.ts) cut a take
 * short or refused it: the reviewer learns why, not a bare error.
 */

const state = (change: Partial<TeamBatchState>): TeamBatchState => ({
  batch: null,
  ids: null,
  refusal: null,
  busy: false,
  error: null,
  empty: false,
  offline: false,
  take: vi.fn(),
  release: vi.fn(),
  ...change,
});

const batch = (hold?: TeamBatch['hold']): TeamBatch => ({
  batchId: 'b1',
  subscriptionId: 'sub',
  itemIds: ['i1', 'i2'],
  filters: '{}',
  takenAt: '2026-01-01T10:00:00Z',
  expiresAt: '2026-01-01T10:10:00Z',
  idleSeconds: 600,
  lost: [],
  renewedAt: null,
  hold,
});

const capError = () =>
  new ApiError(409, 'LEASE_CAP_REACHED', 'you hold 200 undecided items of subscription sub, the most one member may hold at once (200)', '{}');

describe('the batch line and the per-member cap', () => {
  it('says in the line that the hand is full when a take is refused for it, with no error panel beside it', () => {
    render(<BatchBar state={state({ error: capError() })} left={0} lost={0} />);
    expect(screen.getByRole('status', { name: 'Your batch' })).toHaveTextContent(
      /No batch taken: you already hold the most undecided items of this subscription one reviewer may.*Decide or release some/,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a batch was cut short by the cap, and nothing when it was not', () => {
    const { rerender } = render(<BatchBar state={state({ batch: batch({ held: 200, limit: 200 }) })} left={2} lost={0} />);
    expect(screen.getByRole('status', { name: 'Your batch' })).toHaveTextContent(/you hold 200 items, the most one reviewer may/);
    rerender(<BatchBar state={state({ batch: batch({ held: 40, limit: 200 }) })} left={2} lost={0} />);
    expect(screen.getByRole('status', { name: 'Your batch' })).not.toHaveTextContent(/the most one reviewer may/);
    rerender(<BatchBar state={state({ batch: batch() })} left={2} lost={0} />);
    expect(screen.getByRole('status', { name: 'Your batch' })).toHaveTextContent('Batch · 2 left');
  });
});
