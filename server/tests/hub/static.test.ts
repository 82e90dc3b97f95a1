import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from './hub-harness';

/** `npm run hub -- --static DIR`: the console on the hub's origin, as the simulator serves it. */
describe('hub --static', () => {
  let t: TestHub;
  const dir = mkdtempSync(join(tmpdir(), 'hub-static-'));
  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, 'hub', 'v1'), { recursive: true });
    mkdirSync(join(dir, 'v1'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(dir, 'sw.js'), 'self.skipWaiting()');
    // Files named like API paths must never shadow the API.
    writeFileSync(join(dir, 'hub', 'v1', 'me'), 'shadow');
    writeFileSync(join(dir, 'v1', 'frontiers'), 'shadow');
    t = await startTestHub('sqlite', { staticDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the files and index.html for the console’s routes, with the console’s security headers', async () => {
    for (const path of ['/', '/sign-in', '/review?subscription=x']) {
      const page = await fetch(`${t.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await fetch(`${t.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // The offline app shell's worker lists this build's files: never taken from an HTTP cache.
    const worker = await fetch(`${t.url}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toContain('javascript');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing file of a build with 404, not the console (the offline shell would keep that page under a script’s name); a route with a dot is the console', async () => {
    for (const path of ['/assets/app-other-build.js', '/assets/style-x.css', '/workbox-1234.js', '/favicon-2.svg']) {
      const answer = await fetch(`${t.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain('<div id="root">');
    }
    const route = await fetch(`${t.url}/review/sub.v2`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<div id="root">');
  });

  it('never answers an API path with the console: /v1 and /hub/v1 stay JSON, whatever the case', async () => {
    const me = await fetch(`${t.url}/hub/v1/me`);
    expect(me.status).toBe(401);
    expect((await me.json()).errorCode).toBe('NOT_SIGNED_IN');
    for (const path of ['/hub/v1/nope', '/HUB/v1/me', '/hub', '/v1', '/V1/frontiers/x/y/z', '/hub/other']) {
      const answer = await fetch(`${t.url}${path}`);
      // 404, or the forwarder's 401 for /v1 without a member: never the console's 200.
      expect([401, 404], path).toContain(answer.status);
      expect(answer.headers.get('content-type'), path).toContain('application/json');
      expect(await answer.text(), path).not.toContain('shadow');
    }
    const post = await fetch(`${t.url}/anything`, { method: 'POST', headers: { Origin: t.url } });
    expect(post.status).toBe(404);
  });
});

describe('npm run hub -- --static DIR without a built console', () => {
  it('stops at once, saying to build first, and creates nothing', () => {
    const data = mkdtempSync(join(tmpdir(), 'hub-static-cli-'));
    const empty = mkdtempSync(join(tmpdir(), 'hub-static-empty-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/hub.ts', '--static', empty, '--data', join(data, 'hub'), '--port', '0'], {
        encoding: 'utf8',
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('no index.html there (build the console first');
      expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
