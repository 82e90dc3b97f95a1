import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as renderInPage, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection, ConnectionSubscription } from '../../../data';
import type { StoredItem } from '../../../domain/store';
import type { OutboxEntry } from '../../../domain/outbox/model';
import type { TriageRow, TriageState } from '../../../domain/triage';
import { BulkActions } from './bulk-actions';

/**
 * BulkActions with the real outbox engine and its real IndexedDB store (fake-indexeddb), by the
 * connection id the test uses; the service is a stand-in `send` the test answers. A "reload" is a
 * new engine over the same database once the first tab is gone.
 */
const world = vi.hoisted(() => ({
  engine: null as unknown as import('../../../domain/outbox/engine').OutboxEngine,
  /** Answers of the sends in flight; `auto` answers each at once. */
  answers: [] as (() => void)[],
  auto: true,
  sent: [] as OutboxEntry[],
  graceMs: 60_000,
}));
const S = 'scope S';

vi.mock('../../../domain/outbox/settings', async (original) => ({
  ...(await original<typeof import('../../../domain/outbox/settings')>()),
  loadSettings: () => ({ graceSeconds: world.graceMs / 1000 }),
}));
// The outbox the app provides, over this test's engine (a fresh one per tab, keyed by the one scope S).
vi.mock('../../../data', async (original) => {
  const EMPTY: readonly OutboxEntry[] = [];
  // One object, as the app's outbox is: handlers built on it stay the same across renders.
  const outbox = {
    tab: 'this tab',
    releaseBudget: (_c: string, ids: readonly string[]) => world.engine.releaseBudget(S, ids),
    discard: (_c: string, ids: readonly string[]) => world.engine.discard(S, ids),
    enqueueMany: (connectionId: string, decisions: never[], group: string) => world.engine.enqueueMany(S, decisions, group, connectionId),
    undoGroup: (_c: string, group: string) => world.engine.undoGroup(S, group),
    holdGroup: (_c: string, group: string) => world.engine.holdGroup(S, group),
    releaseGroup: (_c: string, group: string) => world.engine.releaseGroup(S, group),
    cancelGroup: (_c: string, group: string) => world.engine.cancelGroup(S, group),
  };
  return {
    ...(await original<typeof import('../../../data')>()),
    useOutboxEntries: () => useSyncExternalStore(world.engine.subscribe, () => world.engine.getSnapshot().entries[S] ?? EMPTY),
    useOtherTabsEntries: () => useSyncExternalStore(world.engine.subscribe, () => world.engine.getSnapshot().others[S] ?? EMPTY),
    useOutbox: () => outbox,
  };
});

const { OutboxEngine } = await vi.importActual<typeof import('../../../domain/outbox/engine')>('../../../domain/outbox/engine');
const { indexedDbStore } = await vi.importActual<typeof import('../../../domain/outbox/store')>('../../../domain/outbox/store');
const { ConsoleDb } = await vi.importActual<typeof import('../../../domain/store/db')>('../../../domain/store/db');

let db: InstanceType<typeof ConsoleDb>;
let dbNo = 0;
const open = new Set<string>();
let tabNo = 0;

function startTab() {
  const id = `tab${++tabNo}`;
  open.add(id);
  world.engine = new OutboxEngine({
    store: indexedDbStore(db),
    send: (entry) => {
      world.sent.push(entry);
      if (world.auto) return Promise.resolve();
      return new Promise<void>((resolve) => world.answers.push(resolve));
    },
    onKeyRefused: () => undefined,
    isOnline: () => true,
    graceMs: () => world.graceMs,
    concurrency: 6,
    tabs: {
      id,
      whenGone: (owner, onGone) => {
        if (!owner || !open.has(owner)) queueMicrotask(onGone);
      },
      announce: () => undefined,
      onAnnounce: () => undefined,
    },
  });
  return id;
}

/** As in the console: under the app's query client (the budgets are read through it). */
function render(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderInPage(ui, { wrapper: ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider> });
}

const connection = { id: 'c1' } as Connection;
const simulated: ConnectionSubscription = { id: 'sim', kind: 'simulated' };
const liveSub: ConnectionSubscription = { id: 'live', kind: 'live' };
const row = (n: number, state: TriageState = 'undecided', priceMicros: number | null = 12_500, kind: 'live' | 'simulated' = 'simulated'): TriageRow => ({
  item: { scope: S, subscriptionId: kind === 'live' ? 'live' : 'sim', itemId: `i${n}`, kind, seq: n, priceMicros } as StoredItem,
  state,
  decidedAt: null,
});
const rows = (n: number, state?: TriageState, kind?: 'live' | 'simulated') => Array.from({ length: n }, (_, i) => row(i + 1, state, 12_500, kind));
const stored = async () => (await db.decisions.toArray()) as OutboxEntry[];

beforeEach(async () => {
  db = new ConsoleDb(`bulk-test-${++dbNo}`);
  world.sent = [];
  world.answers = [];
  world.auto = true;
  world.graceMs = 60_000;
  startTab();
  await world.engine.load(S);
});
afterEach(async () => {
  open.clear();
  db.close();
  await db.delete();
});

describe('BulkActions', () => {
  it('names every matching item, and says why nothing can be decided when nothing qualifies', () => {
    const { rerender } = render(<BulkActions connection={connection} subscription={simulated} rows={[row(1), row(2, 'adopted')]} />);
    expect(screen.getByRole('button', { name: 'Adopt all 2 matching' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Dispute all 2 matching' })).toBeEnabled();
    rerender(<BulkActions connection={connection} subscription={simulated} rows={[row(1, 'adopted'), row(2, 'waiting')]} />);
    expect(screen.getByRole('button', { name: 'Adopt all 2 matching' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dispute all 2 matching' })).toBeDisabled();
    expect(screen.getByText('None of the 2 matching items is undecided.')).toBeInTheDocument();
    rerender(<BulkActions connection={connection} subscription={simulated} rows={[]} />);
    expect(screen.getByText('No items match the filter.')).toBeInTheDocument();
  });

  it("a team hub's viewer gets both buttons disabled, described by why", () => {
    const viewer = { id: 'c1', hub: { member: { id: 'm1', email: 'viewer@team.example', role: 'viewer' } } } as Connection;
    render(<BulkActions connection={viewer} subscription={simulated} rows={[row(1), row(2)]} />);
    for (const name of ['Adopt all 2 matching', 'Dispute all 2 matching']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(/You are a viewer on this team hub/);
    }
  });

  it('confirms a charged adopt with the count, the skips and why, and the exact total; then records exactly those, durably', async () => {
    const user = userEvent.setup();
    const matching = [
      row(1, 'undecided', 12_500),
      row(2, 'undecided', 1),
      row(3, 'undecided', 2_000_000),
      row(4, 'adopted'),
      row(5, 'waiting'),
      row(6, 'waiting'),
      row(7, 'failed'),
    ];
    render(<BulkActions connection={connection} subscription={simulated} rows={matching} />);
    await user.click(screen.getByRole('button', { name: 'Adopt all 7 matching' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Adopt 3 items?' });
    expect(dialog).toHaveTextContent('3 of the 7 matching items will be adopted.');
    expect(within(dialog).getByText('4 are skipped:')).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['1 already adopted', '2 waiting to send', '1 failed to send (retry or discard them first)']);
    expect(dialog).toHaveTextContent('Adopting them charges $2.012501 in total');
    await user.click(within(dialog).getByRole('button', { name: 'Adopt 3 and pay $2.012501' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Recorded 3 decisions to adopt.');
    const bar = screen.getByRole('progressbar', { name: 'Bulk decisions sent' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(bar).toHaveAttribute('aria-valuetext', '0 of 3 confirmed');
    await waitFor(async () => expect((await stored()).map((e) => [e.itemId, e.priceMicros, e.state])).toHaveLength(3));
    const written = await stored();
    expect(written.map((e) => [e.itemId, e.priceMicros, e.state, e.decision]).sort()).toEqual([
      ['i1', 12_500, 'grace', 'adopt'],
      ['i2', 1, 'grace', 'adopt'],
      ['i3', 2_000_000, 'grace', 'adopt'],
    ]);
    expect(new Set(written.map((e) => e.group)).size).toBe(1);
  });

  it('shows "over" for a total past the exact range', async () => {
    const user = userEvent.setup();
    const half = Math.floor(Number.MAX_SAFE_INTEGER / 2);
    render(
      <BulkActions connection={connection} subscription={simulated} rows={[row(1, 'undecided', half), row(2, 'undecided', half), row(3, 'undecided', 5)]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Adopt all 3 matching' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('charges over $9,007,199,254 in total');
  });

  it('asks one reason for a live dispute, charges nothing, and sends the run in a stream to the end', async () => {
    const user = userEvent.setup();
    world.graceMs = 0;
    render(<BulkActions connection={connection} subscription={liveSub} rows={rows(40, 'undecided', 'live')} />);
    await user.click(screen.getByRole('button', { name: 'Dispute all 40 matching' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Dispute 40 items?' });
    expect(dialog).not.toHaveTextContent('charges');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason for all of them (optional)' }), 'blurry');
    await user.click(within(dialog).getByRole('button', { name: 'Dispute 40' }));
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '40 of 40 confirmed'), { timeout: 5_000 });
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(world.sent).toHaveLength(40);
    expect(new Set(world.sent.map((e) => e.itemId)).size).toBe(40);
    expect(world.sent.every((e) => e.decision === 'dispute' && e.reason === 'blurry')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('undoes the whole run inside its undo window: nothing is sent or kept', async () => {
    const user = userEvent.setup();
    render(<BulkActions connection={connection} subscription={simulated} rows={rows(25)} />);
    await user.click(screen.getByRole('button', { name: 'Adopt all 25 matching' }));
    await user.click(screen.getByRole('button', { name: /^Adopt 25 and pay/ }));
    await user.click(await screen.findByRole('button', { name: 'Undo all 25' }));
    expect(screen.getByRole('status')).toHaveTextContent('Undid 25 decisions.');
    await waitFor(async () => expect(await stored()).toEqual([]));
    expect(world.sent).toEqual([]);
  });

  it('pauses and resumes the stream, and cancels what is not sent yet (recorded as discarded, never sent)', async () => {
    const user = userEvent.setup();
    world.graceMs = 0;
    world.auto = false;
    render(<BulkActions connection={connection} subscription={liveSub} rows={rows(20, 'undecided', 'live')} />);
    await user.click(screen.getByRole('button', { name: 'Adopt all 20 matching' }));
    await user.click(screen.getByRole('button', { name: 'Adopt 20' }));
    await waitFor(() => expect(world.answers).toHaveLength(6));
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    for (const answer of world.answers.splice(0)) answer();
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '6 of 20 confirmed'));
    expect(screen.getByText(/paused/)).toBeInTheDocument();
    expect(world.sent).toHaveLength(6);

    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(world.answers).toHaveLength(6));
    world.answers.shift()!();
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '7 of 20 confirmed'));
    // 7 sent, 6 on their way (5 left plus the one picked after the answer): 7 can still be cancelled.
    await user.click(screen.getByRole('button', { name: 'Cancel the 7 not sent yet' }));
    expect(screen.getByRole('status')).toHaveTextContent('Cancelled 7 decisions: recorded as discarded, never sent.');
    for (const answer of world.answers.splice(0)) answer();
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '13 of 13 confirmed'));
    expect(screen.getByText(/7 cancelled/)).toBeInTheDocument();
    expect(world.sent).toHaveLength(13);
    await waitFor(async () => expect((await stored()).filter((e) => e.state === 'discarded')).toHaveLength(7));
  });

  it('shows an unfinished run again after a reload, where it was, paused', async () => {
    const user = userEvent.setup();
    world.graceMs = 0;
    world.auto = false;
    const first = render(<BulkActions connection={connection} subscription={liveSub} rows={rows(12, 'undecided', 'live')} />);
    await user.click(screen.getByRole('button', { name: 'Adopt all 12 matching' }));
    await user.click(screen.getByRole('button', { name: 'Adopt 12' }));
    await waitFor(() => expect(world.answers).toHaveLength(6));
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    for (const answer of world.answers.splice(0)) answer();
    await waitFor(async () => expect((await stored()).filter((e) => e.state === 'sent')).toHaveLength(6));
    first.unmount();

    // The tab closes; a new one opens on the same database.
    open.clear();
    startTab();
    await world.engine.load(S);
    render(<BulkActions connection={connection} subscription={liveSub} rows={rows(12, 'undecided', 'live')} />);
    expect(await screen.findByRole('progressbar')).toHaveAttribute('aria-valuetext', '6 of 12 confirmed');
    expect(screen.getByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(world.answers).toHaveLength(0);
    world.auto = true;
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '12 of 12 confirmed'));
    expect(new Set(world.sent.map((e) => e.itemId)).size).toBe(12);
    expect(world.sent).toHaveLength(12);
  });
});
