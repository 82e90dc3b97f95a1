import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RunProgress } from '../progress';
import { BulkProgress } from './bulk-progress';

const progress = (over: Partial<RunProgress>): RunProgress => ({
  group: 'query:a',
  total: 150,
  sent: 43,
  unsent: 107,
  inWindow: 0,
  queued: 107,
  sending: 0,
  failed: 0,
  conflicts: 0,
  discarded: 0,
  held: 0,
  heldByBudget: 0,
  awaitingConfirmation: 0,
  cancellable: 107,
  startedAt: 1,
  ...over,
});
const handlers = { onUndo: vi.fn(), onPause: vi.fn(), onResume: vi.fn(), onCancel: vi.fn(), onDismiss: vi.fn() };

describe('BulkProgress', () => {
  it('offers Pause while the run streams', () => {
    render(<BulkProgress progress={progress({})} {...handlers} />);
    expect(screen.getByRole('button', { name: 'Pause' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Cancel the 107 not sent yet' })).toBeVisible();
  });

  it('after a reload, charged adopts waiting for "Send and pay" are named, and no Pause pretends the run goes on', () => {
    render(<BulkProgress progress={progress({ awaitingConfirmation: 107 })} {...handlers} />);
    expect(screen.getByText(/43 of 150 confirmed/).closest('p')).toHaveTextContent(
      '107 of the queued wait for your “Send and pay” (left from an earlier visit)',
    );
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel the 107 not sent yet' })).toBeVisible();
  });

  it('a run paused before the reload can be resumed; what then waits for confirmation is said', () => {
    render(<BulkProgress progress={progress({ awaitingConfirmation: 107, held: 107 })} {...handlers} />);
    expect(screen.getByRole('button', { name: 'Resume' })).toBeVisible();
    expect(screen.getByText(/43 of 150 confirmed/).closest('p')).toHaveTextContent('paused · 107 of the queued wait for your “Send and pay”');
  });

  it('lists every part of the run, zeros included, and they add up to what was recorded', () => {
    render(<BulkProgress progress={progress({ sent: 1, inWindow: 7, queued: 0, sending: 7, total: 15, unsent: 14, cancellable: 7 })} {...handlers} />);
    const parts = screen.getByLabelText('15 recorded');
    const read = Object.fromEntries(
      [...parts.querySelectorAll('div')].map((d) => [d.querySelector('dt')!.textContent, Number(d.querySelector('dd')!.textContent)]),
    );
    expect(read).toEqual({ recorded: 15, 'in the undo window': 7, queued: 0, 'on the wire': 7, confirmed: 1, 'held by budget': 0, failed: 0 });
    expect(screen.getByRole('button', { name: 'Cancel the 7 not sent yet' })).toBeVisible();
  });

  it('folds into one line once nothing is left to send', () => {
    render(<BulkProgress progress={progress({ sent: 148, failed: 2, unsent: 0, queued: 0, cancellable: 2 })} {...handlers} />);
    expect(screen.getByRole('region', { name: 'Bulk decisions sent' })).toHaveTextContent('Bulk run done: 148 of 150 confirmed · 2 failed');
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  });
});
