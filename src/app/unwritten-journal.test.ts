import { beforeEach, describe, expect, it } from 'vitest';
import { rememberSecret } from '../lib/redact';
import { outboxEntry } from '../test/outbox-entry';
import { JOURNAL_PREFIX, unwrittenJournal } from './unwritten-journal';

const grace = (itemId: string, scope = 'S') => outboxEntry({ itemId, scope, state: 'grace', attempts: 0 });

beforeEach(() => localStorage.clear());

describe('the journal of decisions a page left unwritten', () => {
  it('keeps each page’s decisions under its own key, reads a scope’s from every page, and drops them once written', () => {
    const closedTab = unwrittenJournal(localStorage, 'tab-a');
    const reloaded = unwrittenJournal(localStorage, 'tab-b');
    closedTab.save([grace('1'), grace('2', 'T')]);
    reloaded.save([grace('3')]);
    const next = unwrittenJournal(localStorage, 'tab-c');
    expect(
      next
        .read('S')
        .map((e) => e.itemId)
        .sort(),
    ).toEqual(['1', '3']);
    expect(next.read('T').map((e) => e.itemId)).toEqual(['2']);

    next.drop('S', new Set(['1', '3']));
    expect(next.read('S')).toEqual([]);
    expect(next.read('T').map((e) => e.itemId)).toEqual(['2']);
    // A key left with nothing in it goes.
    expect(localStorage.getItem(JOURNAL_PREFIX + 'tab-b')).toBeNull();
  });

  it('forgets a whole scope (its local data deleted), and a page back from the cache takes its own decisions back', () => {
    const a = unwrittenJournal(localStorage, 'tab-a');
    a.save([grace('1'), grace('2', 'T')]);
    a.drop('T', null);
    expect(a.read('T')).toEqual([]);
    expect(a.read('S')).toHaveLength(1);
    a.clearOwn();
    expect(a.read('S')).toEqual([]);
  });

  it('skips what it cannot read, and works without storage', () => {
    localStorage.setItem(JOURNAL_PREFIX + 'x', '{not json');
    localStorage.setItem(JOURNAL_PREFIX + 'y', JSON.stringify([{ id: 'half' }, grace('ok')]));
    const journal = unwrittenJournal(localStorage, 'tab');
    expect(journal.read('S').map((e) => e.itemId)).toEqual(['ok']);
    const none = unwrittenJournal(null, 'tab');
    none.save([grace('1')]);
    expect(none.read('S')).toEqual([]);
  });

  it('keeps no secret: a server’s error text is redacted before it is kept', () => {
    const key = 'dds_live_journal_secret_0123456789';
    rememberSecret(key);
    unwrittenJournal(localStorage, 'tab').save([{ ...grace('1'), lastError: `refused ${key}` }]);
    expect(JSON.stringify({ ...localStorage })).not.toContain(key);
  });
});
