import 'fake-indexeddb/auto';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invalidateOnLocalChange } from '../../data';
import { ConsoleDb, setDatabaseForTests, writeSetting } from '../../domain/store';
import { DEFAULT_REASONS, moveReason, renameReason, type ReasonCode } from './model';
import { changeReasons, loadReasons, reasonsQuery } from './store';

const ORG = 'https://dds.example.com org_1';
const OTHER_ORG = 'https://dds.example.com org_2';

let db: ConsoleDb;
let queryClient: QueryClient;
let n = 0;
beforeEach(() => {
  db = new ConsoleDb(`dispute-reasons-${++n}`);
  setDatabaseForTests(db);
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

describe('the reason codes in the local store', () => {
  it('are the defaults until changed, then the changed list, per organization', async () => {
    expect(await loadReasons(ORG)).toEqual(DEFAULT_REASONS);
    await changeReasons(queryClient, ORG, (list) => moveReason(renameReason(list, 'missing_object', 'Object missing'), 'missing_object', -1));
    const stored = await loadReasons(ORG);
    expect(stored.slice(0, 2)).toEqual([
      { code: 'missing_object', label: 'Object missing' },
      { code: 'wrong_label', label: 'Wrong label' },
    ]);
    expect(await loadReasons(OTHER_ORG)).toEqual(DEFAULT_REASONS);
  });

  it('read a damaged document as the defaults, and never store an invalid list', async () => {
    await writeSetting(ORG, 'disputeReasons', [{ code: 'Not Snake', label: 5 }]);
    expect(await loadReasons(ORG)).toEqual(DEFAULT_REASONS);
    await changeReasons(queryClient, ORG, () => []);
    expect(await loadReasons(ORG)).toEqual(DEFAULT_REASONS);
  });

  it('serialise two changes made at once: neither is lost', async () => {
    await Promise.all([
      changeReasons(queryClient, ORG, (list) => renameReason(list, 'duplicate', 'Twice')),
      changeReasons(queryClient, ORG, (list) => renameReason(list, 'unreadable', 'Cannot read')),
    ]);
    const stored = await loadReasons(ORG);
    expect(stored.find((r) => r.code === 'duplicate')?.label).toBe('Twice');
    expect(stored.find((r) => r.code === 'unreadable')?.label).toBe('Cannot read');
  });

  it('are held in the query at once when changed here, and read again when the change feed tells of another tab’s change', async () => {
    const stopInvalidating = invalidateOnLocalChange(db.changes, queryClient);
    const observer = new QueryObserver(queryClient, reasonsQuery(ORG));
    const stop = observer.subscribe(() => undefined);
    const shown = () => observer.getCurrentResult().data as readonly ReasonCode[] | undefined;
    await waitFor(() => expect(shown()).toEqual(DEFAULT_REASONS));
    await changeReasons(queryClient, ORG, (list) => moveReason(list, 'off_topic', -5));
    expect(shown()![0]!.code).toBe('off_topic');
    // Another tab writes the document (here: directly) and tells the feed; the query reads it again.
    await db.settings.put({ scope: ORG, name: 'disputeReasons', value: [{ code: 'only_one', label: 'Only one' }], updatedAt: Date.now() });
    db.changes.publish({ scope: ORG, table: 'settings', ids: ['disputeReasons'] });
    await waitFor(() => expect(shown()).toEqual([{ code: 'only_one', label: 'Only one' }]));
    stop();
    stopInvalidating();
  });
});
