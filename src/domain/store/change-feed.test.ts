import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { invalidateOnLocalChange } from '../../data/local-invalidation';
import { createChangeFeed, localKey, readsChange, type ChangeFeed, type LocalChangeHere } from './change-feed';
import type { StoredItem } from './db';

const feeds: ChangeFeed[] = [];
const feed = (channel: string | null) => {
  const made = createChangeFeed(channel);
  feeds.push(made);
  return made;
};
afterEach(() => {
  for (const made of feeds.splice(0)) made.close();
});

describe('the change feed', () => {
  it('tells this tab with the rows, the other tabs only {scope, table, ids?}, and hears theirs', async () => {
    const changes = feed('feed-test');
    const heard: [LocalChangeHere, boolean][] = [];
    changes.subscribe((change, here) => heard.push([change, here]));
    const otherTab = new BroadcastChannel('feed-test');
    const posted: unknown[] = [];
    otherTab.onmessage = (event: MessageEvent) => posted.push(event.data);
    try {
      const rows = [{ itemId: '1' } as StoredItem];
      changes.publish({ scope: 'S', table: 'items', ids: ['sub'], appended: true, rows });
      expect(heard).toEqual([[{ scope: 'S', table: 'items', ids: ['sub'], appended: true, rows }, true]]);
      await expect.poll(() => posted).toEqual([{ scope: 'S', table: 'items', ids: ['sub'], appended: true }]);

      // Another tab's change is heard; what is not a change is not.
      otherTab.postMessage({ scope: 'S', table: 'nope' });
      otherTab.postMessage({ scope: 'S', table: 'lots', ids: [1] });
      otherTab.postMessage({ scope: 'S', table: 'lots', ids: ['lot_1'], rows: ['not passed on'] });
      await expect.poll(() => heard.length).toBe(2);
      expect(heard[1]).toEqual([{ scope: 'S', table: 'lots', ids: ['lot_1'] }, false]);
    } finally {
      otherTab.close();
    }
  });

  it('maps a change to the query keys that read it', () => {
    const change = { scope: 'S', table: 'items', ids: ['a'] } as const;
    expect(readsChange([...localKey('S', 'items', 'a'), 'triage'], change)).toBe(true);
    expect(readsChange([...localKey('S', 'items', ['b', 'a']), 'stats'], change)).toBe(true);
    expect(readsChange(localKey('S', 'items'), change)).toBe(true);
    expect(readsChange([...localKey('S', 'items', 'b'), 'triage'], change)).toBe(false);
    expect(readsChange([...localKey('T', 'items', 'a'), 'triage'], change)).toBe(false);
    expect(readsChange(localKey('S', 'lots', 'a'), change)).toBe(false);
    expect(readsChange(['dds', 'key', 'S', 'items', 'a'], change)).toBe(false);
    // A change naming no rows reaches every read of its table in its scope.
    expect(readsChange([...localKey('S', 'items', 'b'), 'triage'], { scope: 'S', table: 'items' })).toBe(true);
  });

  it('invalidates, in one place, the queries that read what changed and no other', async () => {
    const changes = feed(null);
    const client = new QueryClient();
    invalidateOnLocalChange(changes, client);
    const keys = [[...localKey('S', 'items', 'a'), 'triage'], [...localKey('S', 'items', 'b'), 'triage'], localKey('S', 'lots'), ['dds', 'key', 'c1', 'usage']];
    for (const key of keys) client.setQueryData(key, 1);
    changes.publish({ scope: 'S', table: 'items', ids: ['a'], appended: true });
    expect(keys.map((key) => client.getQueryState(key)?.isInvalidated)).toEqual([true, false, false, false]);
    changes.publish({ scope: 'S', table: 'lots', ids: ['lot_1'] });
    expect(client.getQueryState(localKey('S', 'lots'))?.isInvalidated).toBe(true);
  });
});
