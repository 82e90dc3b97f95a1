import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { Connection } from '../../../data';
import { ConnectForm } from './connect-form';

const KEY = `dds_live_sk_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'}`;
const VERIFIED = { org_id: 'org_1', key_id: 'key_1', key_name: 'ci' };

type Route = (url: URL, init: RequestInit) => Response | Promise<Response>;
let fetchMock: Mock<(input: string | URL | Request, init?: RequestInit) => Promise<Response>>;

const refusal = (status: number, errorCode: string) => Response.json({ success: false, errorCode, errorMessage: `${errorCode} here` }, { status });

/** Each subscription's probe, as the demo service answers it by default: readable. */
const readable: Route = (url) =>
  url.pathname === '/v1/live/pull' ? Response.json({ data: [], count: 0, has_more: false, next_cursor: '' }) : Response.json({ data: [], count: 0 });

/** The service as the form sees it: no local demo unless a test offers one; verify-key and the subscription probes answer as told. */
function serve({ verify, demo, probe = readable }: { verify?: Route; demo?: Route; probe?: Route } = {}) {
  fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    if (url.pathname === '/_local/demo-connection') return demo ? demo(url, init) : new Response('{}', { status: 404 });
    if (url.pathname === '/v1/auth/verify-key') return verify ? verify(url, init) : Response.json(VERIFIED);
    if (url.pathname === '/v1/live/pull' || url.pathname === '/v1/data/pull') return probe(url, init);
    return new Response('unexpected', { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
}

/** Keys are pasted, not typed (and typing 44 characters one by one is slow). */
async function paste(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

const verifyCalls = () => fetchMock.mock.calls.filter(([input]) => String(input).includes('/v1/auth/verify-key'));
const probeCalls = () =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input))).filter((url) => url.pathname === '/v1/live/pull' || url.pathname === '/v1/data/pull');

function renderForm(editing?: Connection) {
  const onSaved = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ConnectForm editing={editing} onSaved={onSaved} />
    </QueryClientProvider>,
  );
  return { onSaved, user: userEvent.setup(), form: screen.getByRole('form', { name: editing ? 'Edit connection' : 'Connect' }) };
}

beforeEach(() => serve());
afterEach(() => vi.unstubAllGlobals());

// Each test types into a whole form; on a busy shared machine that can take seconds.
describe('ConnectForm', { timeout: 20_000 }, () => {
  it('checks the form before sending anything: a malformed key, no name, a bad base URL are each explained', async () => {
    const { user, onSaved } = renderForm();
    const baseUrl = screen.getByRole('textbox', { name: 'Base URL' });
    await user.clear(baseUrl);
    await paste(user, baseUrl, 'ftp://dds.example.com');
    await paste(user, screen.getByLabelText('API key'), 'dds_live_sk_tooshort');
    await user.type(screen.getByRole('textbox', { name: 'Subscription 1 ID' }), 'sub_1');
    await user.click(screen.getByRole('button', { name: 'Connect' }));

    expect(screen.getByLabelText('API key')).toBeInvalid();
    expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(
      expect.stringContaining("An API key is dds_live_sk_ (or your service's prefix) followed by 32 URL-safe characters."),
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Name is required');
    expect(baseUrl).toHaveAccessibleDescription(expect.stringContaining('Base URL must be an http(s) URL'));
    expect(verifyCalls()).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('sends nothing for a key of the right length but the wrong form, nor for a malformed JWT', async () => {
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Production');
    await paste(user, screen.getByLabelText('API key'), `dds_test_sk_${'x'.repeat(32)}`);
    await user.type(screen.getByLabelText('Dashboard JWT (optional)'), 'not-a-jwt');
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('API key')).toBeInvalid();
    expect(screen.getByLabelText('Dashboard JWT (optional)')).toHaveAccessibleDescription(expect.stringContaining('A JWT has three base64url parts'));
    expect(verifyCalls()).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('verifies a well-formed key with the service, in a header and never in the URL, then saves what was entered', async () => {
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '  Production ');
    const baseUrl = screen.getByRole('textbox', { name: 'Base URL' });
    await user.clear(baseUrl);
    await paste(user, baseUrl, 'https://dds.example.com/');
    // Pasted keys often carry spaces at the ends.
    await paste(user, screen.getByLabelText('API key'), ` ${KEY} `);
    await user.type(screen.getByRole('textbox', { name: 'Subscription 1 ID' }), 'sub_live');
    await user.click(screen.getByRole('button', { name: 'Add subscription' }));
    await user.type(screen.getByRole('textbox', { name: 'Subscription 2 ID' }), 'sub_sim');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Subscription 2 kind' }), 'Simulated');
    // An empty row is left out rather than refused.
    await user.click(screen.getByRole('button', { name: 'Add subscription' }));
    const remember = screen.getByRole('checkbox', { name: /Remember on this device/ });
    expect(remember).not.toBeChecked();
    await user.click(remember);
    expect(remember).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Connect' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    const [connection, outcome] = onSaved.mock.calls[0] as [Connection, string];
    expect(outcome).toBe('verified');
    expect(connection).toMatchObject({
      name: 'Production',
      baseUrl: 'https://dds.example.com',
      apiKey: KEY,
      subscriptions: [
        { id: 'sub_live', kind: 'live' },
        { id: 'sub_sim', kind: 'simulated' },
      ],
      remember: true,
      verified: VERIFIED,
    });
    expect(verifyCalls()).toHaveLength(1);
    const [input, init] = verifyCalls()[0]!;
    expect(String(input)).toBe('https://dds.example.com/v1/auth/verify-key');
    expect(String(input)).not.toContain(KEY);
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${KEY}`);
    // Each subscription was read once with the read that moves nothing: a live re-read from the beginning, a simulated pull, one item.
    expect(probeCalls().map((url) => `${url.pathname}?${url.searchParams}`)).toEqual([
      '/v1/live/pull?subscription_id=sub_live&limit=1&from=beginning',
      '/v1/data/pull?subscription_id=sub_sim&limit=1',
    ]);
  });

  it('refuses unknown and uncovered subscription IDs, each with its reason, and saves nothing until they are fixed or removed', async () => {
    serve({
      probe: (url) => {
        const id = url.searchParams.get('subscription_id');
        if (id === 'sub_nope') return refusal(404, 'NOT_FOUND');
        if (id === 'sub_theirs') return refusal(403, 'SUBSCRIPTION_NOT_IN_SCOPE');
        return readable(url, {});
      },
    });
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Production');
    await paste(user, screen.getByLabelText('API key'), KEY);
    for (const [i, id] of ['sub_ok', 'sub_nope', 'sub_theirs'].entries()) {
      if (i > 0) await user.click(screen.getByRole('button', { name: 'Add subscription' }));
      await user.type(screen.getByRole('textbox', { name: `Subscription ${i + 1} ID` }), id);
    }
    await user.click(screen.getByRole('button', { name: 'Connect' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('2 subscriptions were refused, so nothing was saved: fix or remove them, then Connect again.');
    const field = (n: number) => screen.getByRole('textbox', { name: `Subscription ${n} ID` });
    expect(field(1)).toBeValid();
    expect(field(1)).toHaveAccessibleDescription('✓ Fine: this key can read it.');
    expect(field(2)).toBeInvalid();
    expect(field(2)).toHaveAccessibleDescription(expect.stringMatching(/^Unknown: .*sub_nope/));
    expect(field(3)).toBeInvalid();
    expect(field(3)).toHaveAccessibleDescription(expect.stringMatching(/^Not covered by this key: .*sub_theirs/));
    expect(onSaved).not.toHaveBeenCalled();

    // Removing the refused ones, the rest is saved.
    await user.click(screen.getByRole('button', { name: 'Remove subscription 3' }));
    await user.click(screen.getByRole('button', { name: 'Remove subscription 2' }));
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(onSaved.mock.calls[0]![0]).toMatchObject({ subscriptions: [{ id: 'sub_ok', kind: 'live' }] });
  });

  it('when the subscriptions cannot be checked, it offers to save without verifying, as for the key', async () => {
    serve({ probe: () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Production');
    await paste(user, screen.getByLabelText('API key'), KEY);
    await user.type(screen.getByRole('textbox', { name: 'Subscription 1 ID' }), 'sub_live');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('The service did not answer for one subscription, so it could not be checked. Nothing was saved.');
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Save without verifying' }));
    expect(onSaved).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ apiKey: KEY, verified: VERIFIED }), 'unreachable');
  });

  it('keeps the key masked unless revealed', async () => {
    const { user } = renderForm();
    const key = screen.getByLabelText('API key');
    await paste(user, key, KEY);
    expect(key).toHaveAttribute('type', 'password');
    const reveal = screen.getByRole('button', { name: 'Reveal' });
    expect(reveal).toHaveAttribute('aria-pressed', 'false');
    await user.click(reveal);
    expect(key).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(key).toHaveAttribute('type', 'password');
  });

  it('never saves a key the service refuses, and says why', async () => {
    serve({ verify: () => Response.json({ success: false, errorCode: 'INVALID_API_KEY', errorMessage: 'Unknown key' }, { status: 401 }) });
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Production');
    await paste(user, screen.getByLabelText('API key'), KEY);
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(expect.stringContaining('The service refused this key (INVALID_API_KEY)')),
    );
    expect(screen.getByLabelText('API key')).toBeInvalid();
    expect(screen.queryByRole('button', { name: 'Save without verifying' })).not.toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('when the service cannot be reached, saves nothing unless the user chooses to save without verifying', async () => {
    serve({ verify: () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user, onSaved } = renderForm();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Production');
    await paste(user, screen.getByLabelText('API key'), KEY);
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/cannot be reached/);
    expect(alert).toHaveTextContent('Nothing was saved.');
    expect(alert).not.toHaveTextContent(KEY);
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Save without verifying' }));
    expect(onSaved).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ name: 'Production', apiKey: KEY }), 'unreachable');
  });

  it('fills itself from the local demo when the service offers one', async () => {
    serve({
      demo: () =>
        Response.json({
          api_key: KEY,
          org_id: 'org_demo',
          subscriptions: [{ subscription_id: 'sub_demo', name: 'Demo live', kind: 'live', status: 'active', created_at: '2025-01-01T00:00:00Z' }],
        }),
    });
    const { user } = renderForm();
    await user.click(await screen.findByRole('button', { name: 'Use the local demo' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Local demo');
    expect(screen.getByLabelText('API key')).toHaveValue(KEY);
    expect(screen.getByRole('textbox', { name: 'Subscription 1 ID' })).toHaveValue('sub_demo');
  });

  it('editing: a blank key keeps the saved key and sends no new verify-key; the subscriptions are checked again', async () => {
    const editing: Connection = {
      id: 'c1',
      name: 'Production',
      baseUrl: 'https://dds.example.com',
      apiKey: KEY,
      subscriptions: [{ id: 'sub_live', kind: 'live' }],
      remember: false,
      verified: VERIFIED,
    };
    const { user, onSaved } = renderForm(editing);
    expect(screen.getByLabelText('API key')).toHaveValue('');
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Prod EU{Enter}');
    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: 'c1', name: 'Prod EU', apiKey: KEY, verified: VERIFIED }), 'kept-key'),
    );
    expect(verifyCalls()).toHaveLength(0);
    expect(probeCalls().map((url) => url.searchParams.get('subscription_id'))).toEqual(['sub_live']);
  });

  it('editing: a subscription the key does not cover is refused with its reason and the connection is not saved', async () => {
    serve({ probe: (url) => (url.searchParams.get('subscription_id') === 'sub_added' ? refusal(403, 'SUBSCRIPTION_NOT_IN_SCOPE') : readable(url, {})) });
    const editing: Connection = {
      id: 'c1',
      name: 'Production',
      baseUrl: 'https://dds.example.com',
      apiKey: KEY,
      subscriptions: [{ id: 'sub_live', kind: 'live' }],
      remember: false,
      verified: VERIFIED,
    };
    const { user, onSaved } = renderForm(editing);
    await user.click(screen.getByRole('button', { name: 'Add subscription' }));
    await user.type(screen.getByRole('textbox', { name: 'Subscription 2 ID' }), 'sub_added');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('One subscription was refused, so nothing was saved: fix or remove it, then save again.');
    expect(screen.getByRole('textbox', { name: 'Subscription 2 ID' })).toHaveAccessibleDescription(expect.stringMatching(/^Not covered by this key/));
    expect(onSaved).not.toHaveBeenCalled();
    // Changing the ID clears what was said of the old one.
    await user.type(screen.getByRole('textbox', { name: 'Subscription 2 ID' }), '2');
    expect(screen.getByRole('textbox', { name: 'Subscription 2 ID' })).not.toHaveAccessibleDescription();
  });
});
