import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ForecastState } from '../../budgets';
import { DEFAULT_REASONS } from '../../dispute-reasons';
import type { StoredItem } from '../../../domain/store';
import type { TriageRow } from '../../../domain/triage';
import { bulkPreview } from '../preview';
import { BulkConfirmDialog } from './bulk-confirm-dialog';

const rows = (kind: 'live' | 'simulated', priceMicros: number | null = null): TriageRow[] =>
  [1, 2, 3].map((n) => ({
    item: { scope: 'S', subscriptionId: 'sub', itemId: `i${n}`, kind, seq: n, priceMicros } as StoredItem,
    state: 'undecided',
    decidedAt: null,
  }));

function renderDialog(kind: 'live' | 'simulated', decision: 'adopt' | 'dispute' = 'dispute', forecast: ForecastState | null = null, subscriptionName?: string) {
  const onConfirm = vi.fn();
  render(
    <BulkConfirmDialog
      preview={bulkPreview(rows(kind, kind === 'simulated' ? 17_000 : null), decision, kind)}
      forecast={forecast}
      subscriptionName={subscriptionName}
      matching={3}
      live={kind === 'live'}
      reasons={DEFAULT_REASONS}
      graceSeconds={3}
      onConfirm={onConfirm}
      onCancel={vi.fn()}
    />,
  );
  return { onConfirm, user: userEvent.setup(), dialog: screen.getByRole('alertdialog') };
}

describe('BulkConfirmDialog: one reason for a bulk dispute', () => {
  it('opens on the codes; a number key picks one, the text follows it, Enter confirms code first', async () => {
    const { onConfirm, user, dialog } = renderDialog('live');
    expect(within(dialog).getByRole('radio', { name: 'No code' })).toHaveFocus();
    await user.keyboard('3');
    expect(within(dialog).getByRole('radio', { name: 'Box too loose (box_too_loose)' })).toBeChecked();
    await user.click(within(dialog).getByRole('textbox', { name: 'Reason for all of them (optional)' }));
    await user.keyboard(' 2 px off {Enter}');
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('box_too_loose: 2 px off');
  });

  it('asks a reason for a simulated dispute too, saying it stays here (no body on the wire)', async () => {
    const { onConfirm, user, dialog } = renderDialog('simulated');
    expect(dialog).toHaveTextContent('takes no reason on the wire');
    await user.keyboard('4');
    await user.click(within(dialog).getByRole('button', { name: 'Dispute 3' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('duplicate');
  });

  it('asks no reason for an adopt', () => {
    const { dialog } = renderDialog('live', 'adopt');
    expect(within(dialog).queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Adopt 3' })).toHaveFocus();
  });
});

describe('BulkConfirmDialog: a charged adopt against the budgets', () => {
  const heldBy = { level: 'organization' as const, period: 'daily' as const, limitMicros: 50_000, spentMicros: 34_000, at: Date.now() };

  it('without a limit in the way, names the whole total', () => {
    const forecast: ForecastState = {
      status: 'ready',
      forecast: { subscriptionId: 'sub', limited: false, cleared: 3, clearedMicros: 51_000, held: 0, heldMicros: 0, heldBy: null },
    };
    const { dialog } = renderDialog('simulated', 'adopt', forecast);
    expect(within(dialog).getByRole('button', { name: 'Adopt 3 and pay $0.051' })).toBeVisible();
    expect(dialog).not.toHaveTextContent('held by budget');
  });

  it('says how many a limit would hold and what is paid now, in the confirm button too', async () => {
    const forecast: ForecastState = {
      status: 'ready',
      forecast: { subscriptionId: 'sub', limited: true, cleared: 2, clearedMicros: 34_000, held: 1, heldMicros: 17_000, heldBy },
    };
    const { dialog, onConfirm, user } = renderDialog('simulated', 'adopt', forecast);
    expect(dialog).toHaveTextContent('Your budgets allow 2 of them now ($0.034). The other 1 ($0.017) would be held by budget');
    expect(dialog).toHaveTextContent('The limit: organization daily limit $0.05 (spent $0.034).');
    await user.click(within(dialog).getByRole('button', { name: 'Adopt 3: pay $0.034, hold 1' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('names a subscription’s limit by the subscription’s name', () => {
    const forecast: ForecastState = {
      status: 'ready',
      forecast: {
        subscriptionId: 'sub',
        limited: true,
        cleared: 2,
        clearedMicros: 34_000,
        held: 1,
        heldMicros: 17_000,
        heldBy: { ...heldBy, level: 'subscription' },
      },
    };
    const { dialog } = renderDialog('simulated', 'adopt', forecast, 'Retail shelf audits');
    expect(dialog).toHaveTextContent('The limit: Retail shelf audits daily limit $0.05 (spent $0.034).');
  });

  it('says everything is held while the budgets cannot be checked, and says it is checking meanwhile', () => {
    const { dialog } = renderDialog('simulated', 'adopt', { status: 'blocked', why: 'the receipts could not be read to count what is spent' });
    expect(dialog).toHaveTextContent(
      'Your budgets cannot be checked: the receipts could not be read to count what is spent. Every one of them is held by budget',
    );
    expect(within(dialog).getByRole('button', { name: 'Adopt 3: hold them all' })).toBeVisible();
  });

  it('says it is checking while the budgets or the receipts load', () => {
    const { dialog } = renderDialog('simulated', 'adopt', { status: 'checking' });
    expect(dialog).toHaveTextContent('Checking your budgets…');
  });
});
