import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, InfoDialog } from './dialogs';

/** A page that opens the dialog and closes it when told to, as the console's pages do. */
function ConfirmHarness({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Remove connection</button>
      <ConfirmDialog
        open={open}
        title="Remove Production?"
        confirmLabel="Remove"
        onConfirm={() => {
          onConfirm();
          setOpen(false);
        }}
        onCancel={() => {
          onCancel();
          setOpen(false);
        }}
      >
        Its key is forgotten on this device.
      </ConfirmDialog>
    </>
  );
}

function InfoHarness({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    onOpenChange(next);
    setOpen(next);
  };
  return (
    <>
      <button onClick={() => change(true)}>Keyboard shortcuts</button>
      <InfoDialog open={open} onOpenChange={change} title="Shortcuts">
        A adopts, D disputes.
      </InfoDialog>
    </>
  );
}

async function openConfirm() {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const user = userEvent.setup();
  render(<ConfirmHarness onConfirm={onConfirm} onCancel={onCancel} />);
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Remove connection' }));
  return { user, onConfirm, onCancel, dialog: screen.getByRole('alertdialog', { name: 'Remove Production?' }) };
}

describe('ConfirmDialog', () => {
  it('opens as a modal alert dialog named by its title and described by its text, with the confirm button focused', async () => {
    const { dialog } = await openConfirm();
    expect(dialog).toBeVisible();
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAccessibleDescription('Its key is forgotten on this device.');
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveFocus();
  });

  it('confirms on Enter (the focused confirm button) and closes', async () => {
    const { user, onConfirm, onCancel } = await openConfirm();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('confirms on a click of the confirm button', async () => {
    const { user, onConfirm, onCancel } = await openConfirm();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('cancels on Cancel and on Esc, never confirming', async () => {
    const { user, onConfirm, onCancel } = await openConfirm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove connection' }));
    expect(screen.getByRole('alertdialog', { name: 'Remove Production?' })).toBeVisible();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('leaves closing to its owner: Esc asks to cancel but does not close a dialog the page keeps open', async () => {
    const onCancel = vi.fn();
    const user = userEvent.setup();
    render(
      <ConfirmDialog open title="Send 3 decisions?" confirmLabel="Send" onConfirm={vi.fn()} onCancel={onCancel}>
        They charge $0.30.
      </ConfirmDialog>,
    );
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    // The page did not set open=false, so the dialog and the page's state still agree.
    expect(screen.getByRole('alertdialog', { name: 'Send 3 decisions?' })).toBeVisible();
  });

  it('while busy, the confirm button is disabled so a second press starts nothing', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(
      <ConfirmDialog open busy title="Disconnect Production?" confirmLabel="Disconnect" onConfirm={onConfirm} onCancel={vi.fn()}>
        The key is forgotten.
      </ConfirmDialog>,
    );
    const confirm = screen.getByRole('button', { name: 'Disconnect' });
    expect(confirm).toBeDisabled();
    await user.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('shows why the confirmed work failed inside the dialog, which stays open to try again', () => {
    render(
      <ConfirmDialog
        open
        title="Revoke ci-token?"
        confirmLabel="Revoke token"
        error={new Error('The hub could not be reached')}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
      >
        Scripts using it are refused.
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke ci-token?' });
    expect(dialog).toHaveTextContent('The hub could not be reached');
    expect(screen.getByRole('button', { name: 'Revoke token' })).toBeEnabled();
  });
});

describe('InfoDialog', () => {
  it('opens as a modal dialog named by its title with Close focused; Close and Esc close it', async () => {
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    render(<InfoHarness onOpenChange={onOpenChange} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    const dialog = screen.getByRole('dialog', { name: 'Shortcuts' });
    expect(dialog).toBeVisible();
    expect(dialog).toHaveTextContent('A adopts, D disputes.');
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(screen.getByRole('dialog', { name: 'Shortcuts' })).toBeVisible();
    onOpenChange.mockClear();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledExactlyOnceWith(false);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
