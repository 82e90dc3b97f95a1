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

describe('PayloadViewer task-aware rendering', () => {
  it('highlights spans in the text with their labels, as text only', () => {
    connect('c-spans');
    render(
      <PayloadViewer
        value={{
          text: 'Customer in Oslo <b>wrote</b>',
          spans: [
            [12, 16, 'LOCATION'],
            [17, 999, '<i>x</i>'],
            [40, 50, 'outside'],
          ],
        }}
        baseUrl={BASE}
      />,
    );
    const spans = screen.getByRole('region', { name: 'Text with 2 labelled spans' });
    const marks = [...spans.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['OsloLOCATION', '<b>wrote</b><i>x</i>']);
    expect(spans.querySelector('b, i')).toBeNull();
    expect(spans).toHaveTextContent('1 span not shown');
  });

  it('shows a dialogue as a transcript, a ranking best first, labels as chips and a rating out of 5', () => {
    connect('c-dialogue');
    render(
      <PayloadViewer
        value={{
          dialogue: [
            { role: 'customer', text: 'My order is late.' },
            { role: 'agent', text: 'Sorry, checking now.' },
          ],
          intent: 'shipping_delay',
          csat: 4,
          reply_ranking: [
            { rank: 2, response: 'second best' },
            { rank: 1, response: 'best' },
          ],
        }}
        baseUrl={BASE}
      />,
    );
    const turns = within(screen.getByRole('region', { name: 'Dialogue' })).getAllByRole('listitem');
    expect(turns.map((t) => t.textContent)).toEqual(['customerMy order is late.', 'agentSorry, checking now.']);
    const ranked = within(screen.getByRole('region', { name: 'Ranking' })).getAllByRole('listitem');
    expect(ranked.map((r) => r.textContent)).toEqual(['#1best', '#2second best']);
    expect(within(screen.getByRole('region', { name: 'Labels' })).getByText('shipping_delay')).toBeInTheDocument();
    expect(screen.getByText('4 / 5')).toBeInTheDocument();
  });

  it('t shows the tree, r the raw JSON, each again returns to the rendered view (the focused item only)', async () => {
    connect('c-views');
    const user = userEvent.setup();
    render(<PayloadViewer value={{ question: 'Why?', answer: 'Because.' }} baseUrl={BASE} eagerImage />);
    const region = screen.getByRole('region', { name: 'Delivered content' });
    expect(within(region).getByRole('region', { name: 'Questions and answers' })).toBeInTheDocument();
    await user.keyboard('t');
    expect(within(region).getByRole('button', { name: 'JSON tree' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(region).queryByRole('region', { name: 'Questions and answers' })).toBeNull();
    expect(region.querySelector('details')).toHaveAttribute('open');
    await user.keyboard('r');
    expect(region.querySelector('pre')).toHaveTextContent('"question": "Why?"');
    await user.keyboard('r');
    expect(region.querySelector('pre')).toBeNull();
    expect(within(region).getByRole('region', { name: 'Questions and answers' })).toBeInTheDocument();
  });
});
