import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { outboxEntry } from '../../../test/outbox-entry';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { OutboxStatus } from './outbox-status';

/** The header's status over stand-ins: one active connection, and the outbox as the test sets it. */
const world = vi.hoisted(() => ({
  entries: [] as readonly unknown[],
  others: [] as readonly unknown[],
  loaded: true,
  /** The entries as they are now, when the painted ones (`entries`) are a frame behind; null: the same. */
  now: null as readonly unknown[] | null,
}));

vi.mock('@tanstack/react-router', async (original) => ({
  ...(await original<typeof import('@tanstack/react-router')>()),
  Link: ({ to, children, className }: { to: string; children: React.ReactNode; className?: string }) => (
    <a href={to} className={className}>
      {children}
    </a>
  ),
}));

vi.mock('../../../data', async (original) => ({
  ...(await original<typeof import('../../../data')>()),
  useLeaveGuard: () => undefined,
  useActiveConnection: () => ({ id: 'c1', name: 'Demo', apiKey: 'k' }),
  useOutboxEntries: () => world.entries,
  useOtherTabsEntries: () => world.others,
  useOutboxPaused: () => null,
  useOutboxLoaded: () => world.loaded,
  useOutboxUnsettledNow: () => {
    const now = (world.now ?? world.entries) as OutboxEntry[];
    return { unsettled: now.some((e) => !['sent', 'discarded'].includes(e.state)), entriesNow: () => now };
  },
}));

const status = (state: { entries?: OutboxEntry[]; others?: OutboxEntry[]; loaded?: boolean; now?: OutboxEntry[] }) => {
  world.entries = state.entries ?? [];
  world.now = state.now ?? null;
  world.others = state.others ?? [];
  world.loaded = state.loaded ?? true;
  const { unmount } = render(<OutboxStatus />);
  const label = screen.getByRole('status').getAttribute('aria-label');
  unmount();
  return label;
};

describe('the header’s decision status', () => {
  it('says all are saved only once this tab has read what the device holds', () => {
    // A page loaded again: memory is empty, and what the page before left unsent is not read yet.
    expect(status({ loaded: false })).toBe('Decisions: Saved decisions not read yet');
  });

  it('counts what is unsent once read', () => {
    expect(status({ entries: [outboxEntry({ itemId: 'i1', state: 'grace' })] })).toBe('Decisions: 1 unsent');
  });

  it('says all are saved when the device holds nothing unsent', () => {
    expect(status({ entries: [outboxEntry({ itemId: 'i1', state: 'sent' })] })).toBe('Decisions: All decisions saved');
  });

  it('never says all are saved over a decision just recorded, in the frame before the painted counts have it', () => {
    const sent = outboxEntry({ itemId: 'i1', state: 'sent' });
    expect(status({ entries: [sent], now: [sent, outboxEntry({ itemId: 'i2', state: 'grace' })] })).toBe('Decisions: 1 unsent');
    // Once settled, the painted counts speak (a frame behind, they still count what waited).
    expect(status({ entries: [sent, outboxEntry({ itemId: 'i2', state: 'grace' })], now: [sent, outboxEntry({ itemId: 'i2', state: 'sent' })] })).toBe(
      'Decisions: 1 unsent',
    );
  });

  it('counts another tab’s failed decisions, and the team hub’s holds whichever tab made them', () => {
    expect(status({ others: [outboxEntry({ itemId: 'i1', state: 'failed' })] })).toBe('Decisions: 1 failed in another tab');
    expect(status({ others: [outboxEntry({ itemId: 'i1', state: 'held-team' })] })).toBe('Decisions: 1 held by the team’s budget');
    expect(
      status({
        entries: [outboxEntry({ itemId: 'i1', state: 'held-team' }), outboxEntry({ itemId: 'i2', state: 'grace' })],
        others: [outboxEntry({ itemId: 'i3', state: 'held-team' }), outboxEntry({ itemId: 'i4', state: 'queued' })],
      }),
    ).toBe('Decisions: 1 unsent · 2 held by the team’s budget · 1 unsent in another tab');
  });
});
