import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const a = browserTabs();
    const b = browserTabs();
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

  it('tells the other tabs which scope changed', async () => {
    const a = browserTabs();
    const b = browserTabs();
    const heard = new Promise<string>((resolve) => b.onAnnounce(resolve));
    a.announce('http://dds org_1');
    expect(await heard).toBe('http://dds org_1');
  });
});
