import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleDb, setDatabaseForTests, writeSetting } from '../../domain/store';
import { DEFAULT_REASONS, moveReason, renameReason } from './model';
import { changeReasons, loadReasons, reasonsSnapshot, refreshReasons, subscribeReasons } from './store';

const ORG = 'https://dds.example.com org_1';
const OTHER_ORG = 'https://dds.example.com org_2';

let db: ConsoleDb;
let n = 0;
beforeEach(() => {
  db = new ConsoleDb(`dispute-reasons-${++n}`);
  setDatabaseForTests(db);
});
afterEach(async () => {
  setDatabaseForTests(null);
  await db.delete();
});

describe('the reason codes in the local store', () => {
  it('are the defaults until changed, then the changed list, per organization', async () => {
    expect(await loadReasons(ORG)).toEqual(DEFAULT_REASONS);
    await changeReasons(ORG, (list) => moveReason(renameReason(list, 'missing_object', 'Object missing'), 'missing_object', -1));
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
    await changeReasons(ORG, () => []);
    expect(await loadReasons(ORG)).toEqual(DEFAULT_REASONS);
  });

  it('serialise two changes made at once: neither is lost', async () => {
    await Promise.all([
      changeReasons(ORG, (list) => renameReason(list, 'duplicate', 'Twice')),
      changeReasons(ORG, (list) => renameReason(list, 'unreadable', 'Cannot read')),
    ]);
    const stored = await loadReasons(ORG);
    expect(stored.find((r) => r.code === 'duplicate')?.label).toBe('Twice');
    expect(stored.find((r) => r.code === 'unreadable')?.label).toBe('Cannot read');
  });

  it('tell this tab’s listeners, and read a change made elsewhere on refresh', async () => {
    let told = 0;
    const stop = subscribeReasons(() => told++);
    await refreshReasons(ORG);
    await changeReasons(ORG, (list) => moveReason(list, 'off_topic', -5));
    expect(reasonsSnapshot(ORG)[0]!.code).toBe('off_topic');
    expect(told).toBeGreaterThan(0);
    // Another tab writes the document (here: directly); a refresh (its message, or this tab shown again) reads it.
    await writeSetting(ORG, 'disputeReasons', [{ code: 'only_one', label: 'Only one' }]);
    await refreshReasons(ORG);
    expect(reasonsSnapshot(ORG)).toEqual([{ code: 'only_one', label: 'Only one' }]);
    stop();
  });
});
