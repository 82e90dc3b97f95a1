import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionLifecycle } from './lifecycle';
import { connectionStore, keyedQueryKey, publicQueryKey } from '../../data';
import type { Connection } from '../../data';

const connection = (id: string, key = 'k'.repeat(32)): Connection => ({
  id,
  name: id,
  baseUrl: 'https://dds.example.com',
  apiKey: `dds_live_sk_${key}`,
  subscriptions: [],
  remember: false,
});

afterEach(() => {
  for (const c of connectionStore.getSnapshot().connections) connectionStore.remove(c.id);
});

describe('connection lifecycle', () => {
  it('save, activate, disconnect and remove each drop the reads made with that connection’s key and reload the page', async () => {
    const queryClient = new QueryClient();
    const reload = vi.fn();
    const life = connectionLifecycle(queryClient, reload);
    const a = connection('a');
    const b = connection('b', 'b'.repeat(32));
    life.save(a);
    life.save(b);
    expect(connectionStore.active?.id).toBe('b');
    queryClient.setQueryData([...keyedQueryKey(a), 'usage'], { secret: 1 });
    queryClient.setQueryData([...publicQueryKey(a), 'frontiers'], ['public']);

    // A read in flight with the old connection is cancelled when another becomes active.
    let aborted = false;
    void queryClient
      .fetchQuery({
        queryKey: [...keyedQueryKey(b), 'slow'],
        queryFn: ({ signal }) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('aborted'));
            }),
          ),
      })
      .catch(() => undefined);
    life.activate('a');
    await vi.waitFor(() => expect(aborted).toBe(true));
    expect(connectionStore.active?.id).toBe('a');

    life.save({ ...a, apiKey: `dds_live_sk_${'n'.repeat(32)}` });
    expect(queryClient.getQueryData([...keyedQueryKey(a), 'usage'])).toBeUndefined();
    expect(queryClient.getQueryData([...publicQueryKey(a), 'frontiers'])).toEqual(['public']);

    queryClient.setQueryData([...keyedQueryKey(a), 'usage'], { secret: 2 });
    life.disconnect(connectionStore.active!);
    expect(connectionStore.getSnapshot().connections.find((c) => c.id === 'a')?.apiKey).toBe('');
    expect(queryClient.getQueryData([...keyedQueryKey(a), 'usage'])).toBeUndefined();

    queryClient.setQueryData([...keyedQueryKey(b), 'usage'], { secret: 3 });
    life.remove(b);
    expect(connectionStore.getSnapshot().connections.map((c) => c.id)).toEqual(['a']);
    expect(queryClient.getQueryData([...keyedQueryKey(b), 'usage'])).toBeUndefined();
    expect(reload).toHaveBeenCalledTimes(6);
  });

  it('remove also forgets the image origins the connection allowed; disconnect keeps them, and other connections keep theirs', () => {
    const life = connectionLifecycle(new QueryClient(), () => undefined);
    const a = connection('img-a');
    const b = connection('img-b', 'b'.repeat(32));
    life.save(a);
    life.save(b);
    window.localStorage.setItem('dds.imageOrigins.img-a', JSON.stringify(['https://cdn.example.org']));
    window.localStorage.setItem('dds.imageOrigins.img-b', JSON.stringify(['https://img.example.net']));

    life.disconnect(connectionStore.getSnapshot().connections.find((c) => c.id === 'img-a')!);
    expect(window.localStorage.getItem('dds.imageOrigins.img-a')).not.toBeNull();

    life.remove(a);
    expect(window.localStorage.getItem('dds.imageOrigins.img-a')).toBeNull();
    expect(window.localStorage.getItem('dds.imageOrigins.img-b')).toBe(JSON.stringify(['https://img.example.net']));
  });
});
