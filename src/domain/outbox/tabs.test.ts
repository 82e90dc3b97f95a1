import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChangeFeed } from '../store/change-feed';
import { browserTabs } from './tabs';

/** Web Locks as a browser grants them: a held lock is granted to the next asker once released. */
function fakeLocks() {
  const held = new Map<string, () => void>();
  const queued = new Map<string, (() => void)[]>();
  return {
    request(name: string, callback: () => unknown) {
      if (held.has(name)) return new Promise<void>((resolve) => queued.set(name, [...(queued.get(name) ?? []), () => resolve(void callback())]));
      const result = callback();
      // A callback that never settles holds the lock for as long as its tab is open.
      if (result instanceof Promise) held.set(name, () => held.delete(name));
      return Promise.resolve(result);
    },
    /** The locks held now, as `navigator.locks.query()` lists them. */
    query: async () => ({ held: [...held.keys()].map((name) => ({ name })) }),
    /** The tab holding `name` closes. */
    close(name: string) {
      held.delete(name);
      for (const granted of queued.get(name) ?? []) granted();
      queued.delete(name);
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('tabs', () => {
  it('tells when another tab is gone, at once for a tab that is not open', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const a = browserTabs(createChangeFeed(null));
    const b = browserTabs(createChangeFeed(null));
    const gone: string[] = [];
    b.whenGone(a.id, () => gone.push('a'));
    b.whenGone('closed-long-ago', () => gone.push('old'));
    b.whenGone(undefined, () => gone.push('nobody'));
    await Promise.resolve();
    await Promise.resolve();
    expect(gone.sort()).toEqual(['nobody', 'old']);
    locks.close(`dds.outbox.tab.${a.id}`);
    await Promise.resolve();
    expect(gone).toContain('a');
    expect(a.id).not.toBe(b.id);
  });

  it('tells whether another tab is open now, without waiting for it', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const a = browserTabs(createChangeFeed(null));
    const b = browserTabs(createChangeFeed(null));
    expect(await b.isOpen!(a.id)).toBe(true);
    expect(await b.isOpen!('closed-long-ago')).toBe(false);
    expect(await b.isOpen!(undefined)).toBe(false);
    locks.close(`dds.outbox.tab.${a.id}`);
    expect(await b.isOpen!(a.id)).toBe(false);
  });

  it('the page before a reload is not open, though its lock is still held for a moment', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    sessionStorage.clear();
    // Another tab (its own session storage: created before any page was left here).
    const other = browserTabs(createChangeFeed(null));
    const before = browserTabs(createChangeFeed(null));
    // The page is left (a reload): the next page in this tab starts while the old lock is held.
    window.dispatchEvent(new Event('pagehide'));
    const next = browserTabs(createChangeFeed(null));
    expect(await other.isOpen!(before.id)).toBe(true);
    expect(await next.isOpen!(before.id)).toBe(false);
    // Another tab open beside it is open all the same.
    expect(await next.isOpen!(other.id)).toBe(true);
    sessionStorage.clear();
  });

  it('tells the other tabs which scope changed, on the local store’s one change feed', async () => {
    // Two tabs: each its own feed over the same channel, as two page loads have.
    const feedA = createChangeFeed('dds-local-tabs-test');
    const feedB = createChangeFeed('dds-local-tabs-test');
    const a = browserTabs(feedA);
    const b = browserTabs(feedB);
    const toldHere: string[] = [];
    a.onAnnounce((scope) => toldHere.push(scope));
    const heard = new Promise<string>((resolve) => b.onAnnounce(resolve));
    const changes = new Promise<unknown>((resolve) => feedB.subscribe((change) => resolve(change)));
    a.announce('http://dds org_1');
    expect(await heard).toBe('http://dds org_1');
    expect(await changes).toEqual({ scope: 'http://dds org_1', table: 'decisions' });
    // The announcing tab has the change in memory already: it is not told back.
    expect(toldHere).toEqual([]);
    feedA.close();
    feedB.close();
  });
});
