import { describe, expect, it } from 'vitest';
import type { Connection } from './connection';
import { ACTIVE_KEY, CONNECTIONS_KEY, loadConnections } from './connection-storage';
import { ConnectionStore } from './connection-store';
import { followOtherTabs } from './connection-sync';

const KEY = `dds_live_sk_${'a'.repeat(32)}`;
const connection = (id: string, remember: boolean): Connection => ({
  id,
  name: `conn ${id}`,
  baseUrl: 'https://dds.example.com',
  apiKey: KEY,
  subscriptions: [{ id: 'sub_1', kind: 'live' }],
  remember,
});

describe('connection storage', () => {
  it('keeps a connection in sessionStorage by default and never in localStorage', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    expect(window.sessionStorage.getItem(CONNECTIONS_KEY)).toContain(KEY);
    expect(window.localStorage.getItem(CONNECTIONS_KEY)).toBeNull();
    expect(JSON.stringify({ ...window.localStorage })).not.toContain(KEY);
  });

  it('puts a remembered connection in localStorage only', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('b', true));
    expect(window.localStorage.getItem(CONNECTIONS_KEY)).toContain(KEY);
    expect(window.sessionStorage.getItem(CONNECTIONS_KEY)).toBeNull();
  });

  it('reloads what it saved, with the active connection', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    store.save(connection('b', true));
    store.activate('a');
    const loaded = loadConnections();
    expect(loaded.connections.map((c) => c.id).sort()).toEqual(['a', 'b']);
    expect(loaded.activeId).toBe('a');
    expect(new ConnectionStore().active?.id).toBe('a');
  });

  it('disconnect clears the secrets from every storage but keeps the shell', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save({ ...connection('b', true), jwt: 'aaa.bbb.ccc' });
    store.disconnect('b');
    const everything = JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage });
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('aaa.bbb.ccc');
    expect(store.getSnapshot().connections[0]).toMatchObject({ id: 'b', apiKey: '', name: 'conn b' });
  });

  it('skips a damaged entry and keeps the others', () => {
    window.sessionStorage.setItem(CONNECTIONS_KEY, JSON.stringify([{ id: 'x' }, connection('ok', false)]));
    expect(loadConnections().connections.map((c) => c.id)).toEqual(['ok']);
    window.sessionStorage.setItem(CONNECTIONS_KEY, '{not json');
    expect(loadConnections().connections).toEqual([]);
  });

  it('records a refused key until the connection is saved with a new one', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    store.markRefused('a', { code: 'KEY_REVOKED', message: 'revoked' });
    expect(store.failureOf('a')?.code).toBe('KEY_REVOKED');
    store.save({ ...connection('a', false), apiKey: `dds_live_sk_${'b'.repeat(32)}` });
    expect(store.failureOf('a')).toBeNull();
  });

  it('removing the active connection activates another', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    store.save(connection('b', false));
    store.remove('b');
    expect(store.active?.id).toBe('a');
    expect(window.sessionStorage.getItem(ACTIVE_KEY)).toBe('a');
  });

  it('an edit that keeps the key keeps its refusal; only a new key clears it', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    store.markRefused('a', { code: 'KEY_REVOKED', message: 'revoked' });
    store.save({ ...connection('a', false), jwt: 'aaa.bbb.ccc' });
    expect(store.failureOf('a')?.code).toBe('KEY_REVOKED');
  });

  it('keeps what it observed in memory only: connected, or unreachable since the first failure', () => {
    const store = new ConnectionStore({ connections: [], activeId: null });
    store.save(connection('a', false));
    expect(store.observedOf('a')).toBeNull();
    store.observe('a', 'unreachable', 1_000);
    store.observe('a', 'unreachable', 5_000);
    expect(store.observedOf('a')).toEqual({ state: 'unreachable', since: 1_000 });
    store.observe('a', 'connected', 6_000);
    expect(store.observedOf('a')).toEqual({ state: 'connected', at: 6_000 });
    expect(new ConnectionStore().observedOf('a')).toBeNull();
    store.disconnect('a');
    expect(store.observedOf('a')).toBeNull();
  });

  it('follows another tab: a remembered connection disconnected or removed there is so here, this tab’s own stay', () => {
    const here = new ConnectionStore({ connections: [], activeId: null });
    here.save(connection('tab', false));
    here.save(connection('shared', true));
    const stop = followOtherTabs(here);
    // Another tab disconnects the remembered one: it writes localStorage, this tab hears a storage event.
    const other = new ConnectionStore();
    other.disconnect('shared');
    window.dispatchEvent(new StorageEvent('storage', { key: CONNECTIONS_KEY, storageArea: window.localStorage }));
    expect(here.getSnapshot().connections.find((c) => c.id === 'shared')?.apiKey).toBe('');
    expect(here.getSnapshot().connections.find((c) => c.id === 'tab')?.apiKey).toBe(KEY);
    expect(here.active?.id).toBe('shared');
    other.remove('shared');
    window.dispatchEvent(new StorageEvent('storage', { key: CONNECTIONS_KEY, storageArea: window.localStorage }));
    expect(here.getSnapshot().connections.map((c) => c.id)).toEqual(['tab']);
    expect(here.active?.id).toBe('tab');
    stop();
  });
});
