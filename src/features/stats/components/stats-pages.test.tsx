import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invalidateOnLocalChange, scopeOf, type Connection } from '../../../data';
import { outboxEntry } from '../../../test/outbox-entry';
import { ConsoleDb, localChanges, setDatabaseForTests, type StoredItem } from '../../../domain/store';
import type { OutboxEntry } from '../../../domain/outbox/model';
import { OrganizationStatsPage } from './organization-stats-page';
import { SubscriptionStatsPage } from './subscription-stats-page';

/**
 * The statistics pages on a real local store (fake-indexeddb): item rows written to it, the
 * outbox's decisions a list the test sets (the outbox itself has its own tests).
 */
const world = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  return {
    entries: [] as readonly unknown[],
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit: () => listeners.forEach((listener) => listener()),
  };
});
vi.mock('@tanstack/react-router', async (original) => ({
  ...(await original<typeof import('@tanstack/react-router')>()),
  Link: ({ children }: { children: ReactNode }) => <a href="#link">{children}</a>,
}));
vi.mock('../../../data', async (original) => {
  const { useSyncExternalStore } = await import('react');
  return { ...(await original<typeof import('../../../data')>()), useOutboxEntries: () => useSyncExternalStore(world.subscribe, () => world.entries) };
});

const BASE = 'http://127.0.0.1:8787';
const SCOPE = scopeOf(BASE, 'org_1');
const connection: Connection = {
  id: 'c1',
  name: 'Demo',
  baseUrl: BASE,
  apiKey: '',
  subscriptions: [
    { id: 'sim', kind: 'simulated', label: 'Retail' },
    { id: 'live', kind: 'live' },
  ],
  remember: false,
  verified: { org_id: 'org_1', key_id: 'k1', key_name: 'demo' },
};
const NOV_1 = Date.UTC(2026, 10, 1, 12);
const VISIT = NOV_1 + 1_000;

const stored = (subscriptionId: string, n: number, over: Partial<StoredItem> = {}): StoredItem => ({
  scope: SCOPE,
  subscriptionId,
  itemId: `${subscriptionId}-${n}`,
  kind: subscriptionId === 'sim' ? 'simulated' : 'live',
  seq: n,
  receivedAt: NOV_1,
  via: 'pending',
  open: 1,
  serverDecision: null,
  taskId: subscriptionId === 'live' ? 'task-9' : null,
  campaignId: null,
  frontierId: null,
  verticalId: null,
  topicId: null,
  qualityScore: 0.55,
  qualityGrade: null,
  qualityMethod: null,
  source: null,
  priceMicros: subscriptionId === 'sim' ? 400_000 : null,
  validatorCount: null,
  consensusRatio: null,
  createdAt: null,
  ...over,
});
const decide = (subscriptionId: string, n: number, decision: 'adopt' | 'dispute', over: Partial<OutboxEntry> = {}) =>
  outboxEntry({
    id: `${subscriptionId}-${n}-${decision}`,
    scope: SCOPE,
    itemId: `${subscriptionId}-${n}`,
    subscriptionId,
    kind: subscriptionId === 'sim' ? 'simulated' : 'live',
    decision,
    createdAt: VISIT + 60_000,
    ...over,
  });

function setEntries(entries: readonly OutboxEntry[]) {
  act(() => {
    world.entries = entries;
    world.emit();
  });
}

let db: ConsoleDb;
let name = 0;
beforeEach(() => {
  db = new ConsoleDb(`stats-page-${++name}`);
  setDatabaseForTests(db);
  world.entries = [];
  // recharts measures its box; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  setDatabaseForTests(null);
  await db.delete();
});

function renderPage(page: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // As the app does: a change to the store invalidates the queries that read it.
  invalidateOnLocalChange(localChanges(), client);
  return render(<QueryClientProvider client={client}>{page}</QueryClientProvider>);
}

const summaryValue = (term: string) => {
  const summary = screen.getByRole('region', { name: 'Summary' });
  const dt = within(summary).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent;
};

describe('SubscriptionStatsPage', () => {
  it('shows acceptance, spend and its projection from the store and the outbox, and follows new decisions and items', async () => {
    const user = userEvent.setup();
    // Five simulated items: two adopted ($0.40 and $0.125), one disputed, two undecided at $0.40 and $0.30.
    await db.items.bulkAdd([
      stored('sim', 1),
      stored('sim', 2, { priceMicros: 125_000, qualityScore: 0.95 }),
      stored('sim', 3, { qualityScore: 0.1 }),
      stored('sim', 4),
      stored('sim', 5, { priceMicros: 300_000, receivedAt: NOV_1 + 2 * 86_400_000 }),
      // Another subscription's item is not this page's.
      stored('live', 1),
    ]);
    world.entries = [decide('sim', 1, 'adopt'), decide('sim', 3, 'dispute', { reason: 'duplicate: same as 2' }), decide('live', 1, 'adopt')];
    // The organization's own reason codes, in its order.
    await db.settings.put({
      scope: SCOPE,
      name: 'disputeReasons',
      value: [
        { code: 'duplicate', label: 'Seen twice' },
        { code: 'wrong_label', label: 'Wrong label' },
      ],
      updatedAt: NOV_1,
    });
    renderPage(<SubscriptionStatsPage connection={connection} subscription={connection.subscriptions[0]!} visitStart={VISIT} />);

    expect(await screen.findByRole('heading', { name: 'Statistics: Retail' })).toBeVisible();
    await screen.findByRole('region', { name: 'Summary' });
    expect(summaryValue('Items')).toBe('5');
    expect(summaryValue('Adopted')).toBe('1');
    expect(summaryValue('Disputed')).toBe('1');
    expect(summaryValue('Undecided')).toBe('3');
    expect(summaryValue('Acceptance rate')).toBe('50%');

    // Disputes by reason, in the organization's codes and order.
    const reasons = screen.getByRole('table', { name: 'Disputed items per reason code' });
    await waitFor(() =>
      expect(
        within(reasons)
          .getAllByRole('row')
          .map((r) => r.textContent),
      ).toEqual(['ReasonCodeDisputesShare', 'Seen twiceduplicate1100%', 'Wrong labelwrong_label00%']),
    );

    const spend = screen.getByRole('region', { name: 'Spend (simulated items)' });
    expect(within(spend).getByText('Spend so far').nextElementSibling).toHaveTextContent('$0.40');
    // Undecided $0.125 + $0.40 + $0.30 = $0.825 at 1 of 2 accepted: $0.4125, exactly.
    expect(within(spend).getByText('Projected spend of the undecided items').nextElementSibling).toHaveTextContent('$0.4125');
    expect(within(spend).getByText(/^Undecided 3 × 50% accepted \(1 adopted of 2 decided\) × average price \$0\.275;/)).toBeVisible();

    // Simulated items carry no task, campaign, source or grade: no table of "(none)" alone.
    expect(screen.queryByRole('table', { name: /^Acceptance by/ })).toBeNull();
    expect(screen.getByText(/^No item here carries a task, a campaign, a source, a quality grade \(simulated items carry none of them\)/)).toBeVisible();

    // Each chart is a figure with a name, and its numbers are in a table behind a toggle.
    // (recharts loads with the first chart: its first import in a test run takes seconds.)
    const loaded = { timeout: 20_000 };
    expect(await screen.findByRole('img', { name: /^Quality score histogram by decision: 5 scored items/ }, loaded)).toBeInTheDocument();
    expect(
      await screen.findByRole('img', { name: /^Items received per day, from 2026-11-01 to 2026-11-03: 2026-11-01: 4; 2026-11-03: 1\./ }, loaded),
    ).toBeInTheDocument();
    await user.click(screen.getByText('Quality scores as a table'));
    const histogram = screen.getByRole('table', { name: 'Items per quality score and decision' });
    expect(within(histogram).getByRole('row', { name: '0.5–0.6 2 1 0 0 3' })).toBeVisible();
    expect(within(histogram).getByRole('row', { name: '0.1–0.2 0 0 1 0 1' })).toBeVisible();
    expect(within(histogram).getByRole('row', { name: '0.9–1.0 1 0 0 0 1' })).toBeVisible();
    await user.click(screen.getByText('Items received as a table'));
    const received = screen.getByRole('table', { name: 'Items received per day' });
    expect(
      within(received)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['DayItems', '2026-11-014', '2026-11-031']);

    // Review pace: this subscription's two decisions since the visit began (the live one is another's).
    const pace = screen.getByRole('region', { name: 'Review pace this visit' });
    expect(pace).toHaveTextContent(/2 items decided in/);

    // A decision recorded meanwhile (another tab's, or a send confirmed) shows without a reload.
    setEntries([...(world.entries as OutboxEntry[]), decide('sim', 2, 'adopt')]);
    await waitFor(() => expect(summaryValue('Adopted')).toBe('2'));
    expect(summaryValue('Acceptance rate')).toBe('66.7%');
    expect(within(spend).getByText('Spend so far').nextElementSibling).toHaveTextContent('$0.525');

    // Items pulled meanwhile (here or in another tab) are read again from the store.
    await db.items.add(stored('sim', 6));
    act(() => localChanges().publish({ scope: SCOPE, table: 'items', ids: ['sim'], appended: true }));
    await waitFor(() => expect(summaryValue('Items')).toBe('6'));
    expect(summaryValue('Undecided')).toBe('3');
  }, 30_000);

  it('reads the store again on a new visit: items pulled while the page was closed are counted', async () => {
    await db.items.bulkAdd([stored('live', 1), stored('live', 2)]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const page = () => (
      <QueryClientProvider client={client}>
        <SubscriptionStatsPage connection={connection} subscription={connection.subscriptions[1]!} visitStart={VISIT} />
      </QueryClientProvider>
    );
    const first = render(page());
    await waitFor(() => expect(summaryValue('Items')).toBe('2'));
    first.unmount();
    // Pulled in the review meanwhile: nobody on this page heard of it.
    await db.items.add(stored('live', 3));
    render(page());
    await waitFor(() => expect(summaryValue('Items')).toBe('3'));
  });

  it('says what to do when nothing is kept yet', async () => {
    renderPage(<SubscriptionStatsPage connection={connection} subscription={connection.subscriptions[1]!} visitStart={VISIT} />);
    expect(await screen.findByText(/Pull items to see statistics/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Pull items in Review' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
  });
});

describe('OrganizationStatsPage', () => {
  it('a connection with no subscriptions gets the way to add them, not an empty page', () => {
    renderPage(<OrganizationStatsPage connection={{ ...connection, subscriptions: [] }} visitStart={VISIT} />);
    expect(screen.getByText(/^This connection lists no subscriptions\./)).toHaveTextContent(
      'This connection lists no subscriptions. Add the subscription IDs you work with, then pull items to see statistics.',
    );
    expect(screen.getByRole('link', { name: 'Add the subscription IDs you work with' })).toBeVisible();
  });

  it('puts every subscription together, with a row for each', async () => {
    await db.items.bulkAdd([stored('sim', 1), stored('sim', 2), stored('live', 1), stored('live', 2), stored('live', 3)]);
    world.entries = [decide('sim', 1, 'adopt'), decide('live', 1, 'dispute'), decide('live', 2, 'adopt'), decide('live', 3, 'adopt', { state: 'failed' })];
    renderPage(<OrganizationStatsPage connection={connection} visitStart={VISIT} />);
    const table = await screen.findByRole('table', { name: 'By subscription' });
    expect(within(table).getByRole('row', { name: /^Retail sim simulated/ })).toHaveTextContent(/^Retail simsimulated2110100%\$0\.40\$0\.40$/);
    expect(within(table).getByRole('row', { name: /^live live/ })).toHaveTextContent(/^livelive301150%——$/);
    expect(summaryValue('Items')).toBe('5');
    expect(summaryValue('Adopted')).toBe('2');
    expect(summaryValue('Disputed')).toBe('1');
    expect(summaryValue('Other')).toBe('1');
    expect(summaryValue('Acceptance rate')).toBe('66.7%');
    const byTask = screen.getByRole('table', { name: 'Acceptance by task' });
    expect(within(byTask).getByRole('row', { name: 'task-9 3 1 1 50%' })).toBeVisible();
    expect(within(byTask).getByRole('row', { name: '(none) 2 1 0 100%' })).toBeVisible();
    expect(
      screen.getByText(/^No item here carries a campaign, a source, a quality grade \(simulated items carry none of them\), so there is no table by them\.$/),
    ).toBeVisible();
    const spend = screen.getByRole('region', { name: 'Spend (simulated items)' });
    expect(within(spend).getByText('Projected spend of the undecided items').nextElementSibling).toHaveTextContent('$0.40');
    expect(screen.getByRole('region', { name: 'Review pace this visit' })).toHaveTextContent(/4 items decided in/);
  });
});
