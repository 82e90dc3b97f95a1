import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamRequest } from '../../hub/http/upstream-request';

/*
 * The hub keeps connections to the vendor alive. A vendor closes an idle one when it likes, and the
 * close may cross the hub's next request on the wire (or, after the hub's event loop stalled, every
 * pooled connection is stale at once). This vendor answers the first request on a connection and
 * drops any later one on it, as such a close does: the hub must still get its answer.
 */

let server: ReturnType<typeof createServer>;
let url: URL;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    connections++;
    let answered = false;
    socket.on('data', () => {
      if (answered) return void socket.destroy();
      answered = true;
      const body = JSON.stringify({ ok: true });
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  url = new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/data/items/x/adopt`);
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const post = async (repeatable = true) => {
  const response = await upstreamRequest(url, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: '',
    signal: AbortSignal.timeout(10_000),
    repeatable,
  });
  return { status: response.status, body: await response.text() };
};

describe('upstreamRequest over kept-alive connections', () => {
  it('a request the vendor drops on a reused connection is sent again on a fresh one', async () => {
    expect(await post()).toEqual({ status: 200, body: '{"ok":true}' });
    // Reuses the first connection, which the vendor drops: answered on a new one.
    expect(await post()).toEqual({ status: 200, body: '{"ok":true}' });
    expect(connections).toBe(2);
  });

  it('one that is not repeatable (an incremental pull) is never sent twice: the drop is the caller’s error', async () => {
    const before = connections;
    expect(await post()).toEqual({ status: 200, body: '{"ok":true}' });
    await expect(post(false)).rejects.toThrow();
    expect(connections).toBe(before + 1);
  });

  it('a fresh connection that fails is not tried again: the error is the caller’s', async () => {
    const closed = createServer((socket) => socket.destroy());
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const address = closed.address();
    const target = new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/x`);
    await expect(upstreamRequest(target, { method: 'GET', headers: {}, signal: AbortSignal.timeout(10_000), repeatable: true })).rejects.toThrow();
    await new Promise<void>((done) => closed.close(() => done()));
  });
});
