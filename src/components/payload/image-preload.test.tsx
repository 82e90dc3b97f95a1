import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectionStore, type Connection } from '../../data';
import { recordImageRequests, type ImageRequest } from '../../test/image-requests';
import { useImagePreload } from './image-preload';

const BASE = 'https://dds.example.com';

// The images asked for: what the hook sets on each `new Image()`.
let made: ImageRequest[] = [];
beforeEach(() => {
  made = recordImageRequests();
});
afterEach(() => vi.unstubAllGlobals());

describe('useImagePreload', () => {
  it('fetches the images payloads would show, by the viewer’s rules: safe same-origin URLs, without a referrer', () => {
    const { result } = renderHook(() => useImagePreload(BASE));
    result.current([
      { image: { url: '/media/scenes/1.svg', width: 640, height: 480 }, annotations: [] },
      { image_url: 'https://dds.example.com/media/scenes/2.svg' },
      // Another origin, never allowed: not loaded (it would tell that origin who opened the item).
      { image_url: 'https://tracker.example.net/pixel.png' },
      // Not an image URL a viewer would load.
      { image_url: 'javascript:alert(1)' },
      // Already in memory.
      { image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      // No image at all, or no content read yet.
      { text: 'a message' },
      undefined,
      null,
      ['a list'],
    ]);
    expect(made).toEqual([
      { src: 'https://dds.example.com/media/scenes/1.svg', referrerPolicy: 'no-referrer' },
      { src: 'https://dds.example.com/media/scenes/2.svg', referrerPolicy: 'no-referrer' },
    ]);
  });

  it('fetches images of an origin the user always allows on this connection', () => {
    window.localStorage.setItem('dds.imageOrigins.c-preload', JSON.stringify(['https://cdn.example.org']));
    const connection: Connection = {
      id: 'c-preload',
      name: 'c-preload',
      baseUrl: BASE,
      apiKey: `dds_live_sk_${'a'.repeat(32)}`,
      subscriptions: [],
      remember: false,
    };
    act(() => connectionStore.save(connection));
    const { result } = renderHook(() => useImagePreload(BASE));
    result.current([{ image_url: 'https://cdn.example.org/1.png' }, { image_url: 'https://other.example/2.png' }]);
    expect(made.map((m) => m.src)).toEqual(['https://cdn.example.org/1.png']);
  });
});
