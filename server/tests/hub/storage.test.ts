import Database from 'libsql';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHub, type RunningHub } from '../../hub/main';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/** A TCP relay to PostgreSQL that can be cut and restored: the database "goes down" without touching the server. */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<number>((done) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        done(port);
      });
    });
  const down = () =>
    new Promise<void>((done) => {
      for (const s of sockets) s.destroy();
      server!.close(() => done());
    });
  return { up, down };
}

const signIn = (hub: RunningHub) =>
  fetch(`${hub.url}/hub/v1/session`, {
    method: 'POST',
    headers: { Origin: hub.url, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@demo.hub', password: 'whatever-password' }),
  });

describe('hub storage', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('PostgreSQL down: a 503 DATABASE_UNAVAILABLE envelope, and service again once it is back', async () => {
    process.env.HUB_PASSWORD_COST = 'low';
    const database: ThrowawayDatabase = await throwawayDatabase();
    cleanup.push(() => database.drop());
    const url = new URL(database.url);
    const link = relay({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(await link.up());
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-test-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const logs: string[] = [];
    const hub = await startHub({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: url.href, log: (l) => logs.push(l) });
    cleanup.push(() => hub.close());
    expect((await signIn(hub)).status).toBe(401);

    await link.down();
    const down = await signIn(hub);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ success: false, errorCode: 'DATABASE_UNAVAILABLE', errorMessage: expect.stringMatching(/unavailable/) });
    expect(down.headers.get('Retry-After')).toBe('5');

    await link.up();
    expect((await signIn(hub)).status).toBe(401);
    // The connection string (with its password) never reaches the log.
    expect(logs.join('\n')).not.toContain(url.password);
  });

  it('SQLite locked by another writer beyond the busy timeout: 503, then service again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-test-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const hub = await startHub({ port: 0, host: '127.0.0.1', dataDir });
    cleanup.push(() => hub.close());
    // The store is the owner's alone.
    expect(statSync(join(dataDir, 'hub.db')).mode & 0o777).toBe(0o600);
    const other = new Database(join(dataDir, 'hub.db'));
    other.exec('BEGIN IMMEDIATE');
    const locked = await signIn(hub);
    expect(locked.status).toBe(503);
    expect((await locked.json()).errorCode).toBe('DATABASE_UNAVAILABLE');
    other.exec('ROLLBACK');
    other.close();
    expect((await signIn(hub)).status).toBe(401);
  });

  it('a restart keeps everything and applies no migration twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hub-test-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startHub({ port: 0, host: '127.0.0.1', dataDir, demo: true });
    await first.close();
    const second = await startHub({ port: 0, host: '127.0.0.1', dataDir, demo: true });
    cleanup.push(() => second.close());
    const members = await second.store.db.selectFrom('members').select('email').execute();
    expect(members).toHaveLength(4);
    const migrations = await second.store.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .execute();
    expect((migrations as { name: string }[]).map((m) => m.name).sort()).toEqual([
      '0001_initial',
      '0002_vendor_keys',
      '0003_decisions',
      '0004_team_settings',
      '0005_team_subscriptions',
      '0006_vendor_receipts',
      '0007_team_lots',
      '0008_shared_inbox',
      '0009_overlap_votes',
      '0010_live_audit_notify',
      '0011_inbox_pulls',
      '0012_leases_queue',
      '0013_queue_state',
      '0014_queue_counts',
      '0015_pull_position',
      '0016_leases_member',
    ]);
  });
});
