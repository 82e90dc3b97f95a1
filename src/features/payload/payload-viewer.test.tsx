import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { connectionStore, type Connection } from '../../data';
import { PayloadViewer } from './payload-viewer';

const BASE = 'https://dds.example.com';

function connect(id: string) {
  const connection: Connection = { id, name: id, baseUrl: BASE, apiKey: `dds_live_sk_${'a'.repeat(32)}`, subscriptions: [], remember: false };
  act(() => connectionStore.save(connection));
}

const images = () => [...document.querySelectorAll('img')].map((img) => img.getAttribute('src'));

describe('PayloadViewer images', () => {
  it('loads same-origin, relative, data: and blob: images at once', () => {
    connect('c-same');
    for (const url of [`${BASE}/media/a.png`, '/media/b.png', 'data:image/png;base64,AAAA', 'blob:https://dds.example.com/0c4e']) {
      const { unmount } = render(<PayloadViewer value={{ image_url: url }} baseUrl={BASE} />);
      expect(images(), url).toHaveLength(1);
      unmount();
    }
  });

  it('holds an image from another origin behind a placeholder naming its host, until "Load once"', async () => {
    connect('c-once');
    const user = userEvent.setup();
    const { unmount } = render(<PayloadViewer value={{ image_url: 'https://evil.example/pixel.png?leak=1' }} baseUrl={BASE} />);
    expect(images()).toEqual([]);
    const placeholder = screen.getByRole('group', { name: 'Image from evil.example, not loaded' });
    expect(placeholder).toHaveTextContent('Image from evil.example');
    await user.click(within(placeholder).getByRole('button', { name: 'Load once' }));
    expect(images()).toEqual(['https://evil.example/pixel.png?leak=1']);
    expect(document.querySelector('img')).toHaveAttribute('referrerpolicy', 'no-referrer');
    unmount();
    // Once is once: shown again, it asks again.
    render(<PayloadViewer value={{ image_url: 'https://evil.example/pixel.png?leak=1' }} baseUrl={BASE} />);
    expect(images()).toEqual([]);
    expect(window.localStorage.getItem('dds.imageOrigins.c-once')).toBeNull();
  });

  it('a host that looks like the base URL’s is still another origin', () => {
    connect('c-lookalike');
    for (const url of [
      'https://dds.example.com.evil.example/a.png',
      'https://dds.example.com@evil.example/a.png',
      'http://dds.example.com/a.png',
      'https://dds.example.com:8443/a.png',
    ]) {
      const { unmount } = render(<PayloadViewer value={{ image_url: url }} baseUrl={BASE} />);
      expect(images(), url).toEqual([]);
      unmount();
    }
  });

  it('"Always allow" loads every image of that origin for this connection, remembered without the key', async () => {
    connect('c-always');
    const user = userEvent.setup();
    render(
      <>
        <PayloadViewer value={{ image_url: 'https://cdn.example.org/1.png' }} baseUrl={BASE} label="First" />
        <PayloadViewer value={{ image_url: 'https://cdn.example.org/2.png' }} baseUrl={BASE} label="Second" />
        <PayloadViewer value={{ image_url: 'https://other.example/3.png' }} baseUrl={BASE} label="Third" />
      </>,
    );
    const first = screen.getByRole('region', { name: 'First' });
    await user.click(within(first).getByRole('button', { name: 'Always allow cdn.example.org' }));
    expect(images()).toEqual(['https://cdn.example.org/1.png', 'https://cdn.example.org/2.png']);
    const stored = window.localStorage.getItem('dds.imageOrigins.c-always');
    expect(JSON.parse(stored!)).toEqual(['https://cdn.example.org']);
    expect(stored).not.toContain('dds_live_sk_');

    // Another connection has its own choices.
    connect('c-elsewhere');
    expect(images()).toEqual([]);
  });

  it('reads what was allowed earlier (a reload)', () => {
    window.localStorage.setItem('dds.imageOrigins.c-reloaded', JSON.stringify(['https://cdn.example.org']));
    connect('c-reloaded');
    render(<PayloadViewer value={{ image_url: 'https://cdn.example.org/1.png' }} baseUrl={BASE} />);
    expect(images()).toEqual(['https://cdn.example.org/1.png']);
  });
});

describe('PayloadViewer links', () => {
  it('says where a link to another origin goes, in its name; same-origin links stay as they are', () => {
    connect('c-links');
    render(<PayloadViewer value={{ docs: 'https://dds.example.com.evil.example/login', own: '/v1/items/42', page: `${BASE}/help` }} baseUrl={BASE} />);
    const foreign = screen.getByRole('link', { name: 'https://dds.example.com.evil.example/login (opens dds.example.com.evil.example)' });
    expect(foreign).toHaveAttribute('href', 'https://dds.example.com.evil.example/login');
    expect(foreign).toHaveAttribute('target', '_blank');
    expect(foreign.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(screen.getByRole('link', { name: '/v1/items/42' })).toHaveAttribute('href', `${BASE}/v1/items/42`);
    expect(screen.getByRole('link', { name: `${BASE}/help` })).toBeInTheDocument();
  });

  it('links nothing that resolves off the base URL from a relative-looking path', () => {
    connect('c-relative');
    render(<PayloadViewer value={{ a: '/\\evil.example/x', b: '/\\\\evil.example/x' }} baseUrl={BASE} />);
    expect(screen.queryAllByRole('link')).toEqual([]);
  });
});
