import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SHOWN_CHARACTERS } from '../../../components/ui/long-text';
import { outboxEntry } from '../../../test/outbox-entry';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { OutboxNotices } from './outbox-notices';

/** The notices over stand-ins: one active connection and the outbox entries the test sets. */
const world = vi.hoisted(() => ({ entries: [] as readonly unknown[] }));

vi.mock('../../../data', async (original) => ({
  ...(await original<typeof import('../../../data')>()),
  useConnections: () => ({ active: { id: 'c1', name: 'Demo', apiKey: 'k' }, failures: {} }),
  useOutboxEntries: () => world.entries,
  useOutboxPaused: () => null,
  useOutboxPausedSubscriptions: () => ({}),
  useOutboxWriteError: () => null,
  useOutbox: () => ({ isDiscardable: () => false, retry: vi.fn(), discard: vi.fn(), confirm: vi.fn() }),
}));

const show = (entries: OutboxEntry[]) => {
  world.entries = entries;
  return render(<OutboxNotices />);
};

describe('a failed decision’s error text', () => {
  it('is cut when long, with a toggle that shows all of it', async () => {
    const lastError = `service said: ${'x'.repeat(5_000)}END`;
    show([outboxEntry({ itemId: 'i9', state: 'failed', lastError })]);
    const notice = screen.getByRole('region', { name: 'Decisions that need attention' });
    expect(notice.textContent).toContain('Could not adopt item i9: service said: xxx');
    expect(notice.textContent).not.toContain('END');
    expect(notice.textContent!.length).toBeLessThan(SHOWN_CHARACTERS + 200);

    await userEvent.click(screen.getByRole('button', { name: /show all/i }));
    expect(notice.textContent).toContain(`${'x'.repeat(5_000)}END`);
    await userEvent.click(screen.getByRole('button', { name: /show less/i }));
    expect(notice.textContent).not.toContain('END');
  });

  it('is shown whole, without a toggle, when short', () => {
    show([outboxEntry({ itemId: 'i9', state: 'failed', lastError: 'network error' })]);
    expect(screen.getByText(/Could not adopt item i9: network error/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /show all/i })).toBeNull();
  });

  it('cuts what the service says it recorded, on a conflict', () => {
    show([outboxEntry({ itemId: 'i9', state: 'conflict', recorded: 'r'.repeat(5_000) })]);
    const notice = screen.getByRole('region', { name: 'Decisions that need attention' });
    expect(notice.textContent!.length).toBeLessThan(SHOWN_CHARACTERS + 200);
  });
});
