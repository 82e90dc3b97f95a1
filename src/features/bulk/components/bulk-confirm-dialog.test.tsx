import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_REASONS } from '../../dispute-reasons';
import type { StoredItem } from '../../local-store';
import type { TriageRow } from '../../triage';
import { bulkPreview } from '../preview';
import { BulkConfirmDialog } from './bulk-confirm-dialog';

const rows = (kind: 'live' | 'simulated'): TriageRow[] =>
  [1, 2, 3].map((n) => ({
    item: { scope: 'S', subscriptionId: 'sub', itemId: `i${n}`, kind, seq: n, priceMicros: null } as StoredItem,
    state: 'undecided',
    decidedAt: null,
  }));

function renderDialog(kind: 'live' | 'simulated', decision: 'adopt' | 'dispute' = 'dispute') {
  const onConfirm = vi.fn();
  render(
    <BulkConfirmDialog
      preview={bulkPreview(rows(kind), decision, kind)}
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
