import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHubStore, type HubStore } from '../../hub/db/open';
import { createPasswords } from '../../hub/passwords';
import { addMember } from '../../hub/store/members';
import { replaceTeamSubscriptions } from '../../hub/store/team-subscriptions';
import { addVendorKey } from '../../hub/store/vendor-keys';
import { vendorCipher } from '../../hub/vendor-cipher';
import { adoptReceipts, eventually, startRelay, startVendor, type Vendor } from './decisions-kit';
import { cookieOf } from './hub-harness';
import { throwawayDatabase, type ThrowawayDatabase } from './postgres';

/*
 * Issue 26 item 8, bullet 5: two hub PROCESSES (the CLI, as `npm run hub` starts them) on one
 * PostgreSQL database and one hub secret serve one team. Four reviewers over real HTTP, two on
 * each hub, make the team's pulls, take batches from the queue and adopt or dispute them. Hub A is
 * killed with SIGKILL while one of its team pulls and one of its decisions are in flight (the
 * vendor has answered both, the hub never got the answers: a gate in front of the vendor holds
 * them); its reviewers go on against hub B, and A is started again. Judged by the simulator's own
 * records: no item pulled twice, every item it delivered in the team's inbox, every decided item
 * decided once at the vendor, every adopt charged once; and by the hub's tables: no item leased
 * to two members.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;
const LIVE = 'sub_live_streets';
const SIM = 'sub_sim_retail';
const REVIEWERS = ['r1@team.test', 'r2@team.test', 'r3@team.test', 'r4@team.test'];
const PASSWORD = 'correct horse battery';
/** Rounds in which each reviewer makes the team's pulls before reviewing what is left. */
const PULL_ROUNDS = 5;
/** Rounds in all: the queue holds more than the team reviews here (a pull lost with the killed hub is recovered with up to a page kept ahead). */
const ROUNDS = 7;
/** Decisions answered before hub A's answers from the vendor are held and it is killed. */
const KILL_AFTER = 12;
const CLAIM_MS = 1_500;

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

type Held = 'pull' | 'decision';

/** A pass-through to the vendor that counts what reached it and can hold the first answer of a kind (the vendor has acted; the hub waits). */
async function holdingGate(target: string) {
  const holding = new Set<Held>();
  const held = new Map<Held, string>();
  const seen = { pulls: 0, rereads: 0, decisions: new Map<string, number>() };
  const kindOf = (req: IncomingMessage): Held | null => {
    const path = req.url ?? '';
    return req.method === 'POST' ? 'decision' : path.startsWith('/v1/live/pull') && !path.includes('from=beginning') ? 'pull' : null;
  };
  const relay = await startRelay(target, {
    request: (req) => {
      const path = req.url ?? '';
      if (req.method === 'POST') seen.decisions.set(path, (seen.decisions.get(path) ?? 0) + 1);
      else if (kindOf(req) === 'pull') seen.pulls++;
      else if (path.includes('from=beginning')) seen.rereads++;
      return true;
    },
    answer: (req, answer) => {
      const kind = kindOf(req);
      if (!kind || !holding.has(kind) || held.has(kind)) return true;
      // The vendor acted on it; its answer never leaves this gate (the hub is killed meanwhile).
      held.set(kind, req.url ?? '');
      answer.resume();
      return false;
    },
  });
  return { url: relay.url, hold: (kind: Held) => holding.add(kind), held, seen, close: relay.close };
}
type Gate = Awaited<ReturnType<typeof holdingGate>>;

/** Adopt two items in three, dispute the third: fixed per item, so a retry repeats the same decision. */
const kindOf = (id: string) => ([...id].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 3 === 2 ? 'dispute' : 'adopt');

interface HubProcess {
  name: string;
  port: number;
  gate: Gate;
  dataDir: string;
  child?: ChildProcess;
  up: boolean;
}

describe('two hub processes on one PostgreSQL, one killed with SIGKILL mid-review', () => {
  let vendor: Vendor;
  let database: ThrowawayDatabase;
  let store: HubStore;
  const hubs: HubProcess[] = [];
  const secret = randomBytes(32).toString('hex');
  const url = (h: HubProcess) => `http://127.0.0.1:${h.port}`;

  /** The hub as `npm run hub` runs it (node itself, not the tsx wrapper, so that SIGKILL reaches the hub). */
  const start = async (h: HubProcess) => {
    const args = ['--import', 'tsx', 'server/cli/hub.ts', '--port', String(h.port), '--host', '127.0.0.1'];
    args.push('--data', h.dataDir, '--database', database.url, '--upstream', h.gate.url, '--quiet');
    h.child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, HUB_SECRET: secret, HUB_PASSWORD_COST: 'low', HUB_PULL_CLAIM_MS: String(CLAIM_MS) },
      stdio: 'ignore',
    });
    await eventually(async () => (await fetch(`${url(h)}/hub/v1/me`).catch(() => null))?.status === 401, 100);
    h.up = true;
  };

  beforeAll(async () => {
    process.env.HUB_PASSWORD_COST = 'low';
    vendor = await startVendor();
    database = await throwawayDatabase();
    // The team, as an admin would make it, once for both hubs (they share the database).
    store = await openHubStore({ dataDir: mkdtempSync(join(tmpdir(), 'hub-scale-cli-')), databaseUrl: database.url });
    const hash = await createPasswords().hash(PASSWORD);
    await addMember(store.db, { email: 'admin@team.test', role: 'admin', passwordHash: hash });
    for (const email of REVIEWERS) await addMember(store.db, { email, role: 'reviewer', passwordHash: hash });
    await addVendorKey(store.db, vendorCipher(Buffer.from(secret, 'utf8')), {
      name: 'vendor',
      key: vendor.credentials.api_key,
      jwt: vendor.credentials.jwt,
      subscriptions: ['*'],
    });
    await replaceTeamSubscriptions(store.db, [
      { id: LIVE, kind: 'live' },
      { id: SIM, kind: 'simulated' },
    ]);
    for (const name of ['A', 'B']) {
      const h: HubProcess = {
        name,
        port: await freePort(),
        gate: await holdingGate(vendor.url),
        dataDir: mkdtempSync(join(tmpdir(), `hub-scale-${name}-`)),
        up: false,
      };
      hubs.push(h);
    }
    await Promise.all(hubs.map(start));
  });
  afterAll(async () => {
    for (const h of hubs) {
      h.child?.kill('SIGTERM');
      await h.gate.close();
      rmSync(h.dataDir, { recursive: true, force: true });
    }
    await store?.close();
    await database?.drop();
    await vendor?.close();
  });

  it('loses, repeats and double-leases nothing, counted against the simulator’s records', async () => {
    const signIn = async (email: string) => {
      const answer = await fetch(`${url(hubs[0]!)}/hub/v1/session`, {
        method: 'POST',
        headers: { Origin: url(hubs[0]!), 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return cookieOf(answer.headers)!;
    };
    const cookies = await Promise.all(REVIEWERS.map(signIn));
    // The demo seed decided some items before the team existed: they are not the team's.
    const seededDecided = new Set(
      (vendor.service.db.prepare("SELECT id FROM items WHERE subscription_id = ? AND status <> 'pending'").all(SIM) as { id: string }[]).map((i) => i.id),
    );

    let killed: Promise<void> | undefined;
    /** One request, as the console sends it, to the reviewer's hub or, while it is down, the other (the load balancer). */
    const send = async (r: number, method: string, path: string, body?: unknown) => {
      const h = hubs[r % 2]!.up ? hubs[r % 2]! : hubs[(r + 1) % 2]!;
      const answer = await fetch(`${url(h)}${path}`, {
        method,
        headers: { Cookie: cookies[r]!, Origin: url(h), ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).catch(() => null);
      if (!answer) {
        // No answer: that hub is gone (the load balancer takes it out) until it is back.
        h.up = false;
        return null;
      }
      return { status: answer.status, body: (await answer.json().catch(() => null)) as Record<string, unknown> | null };
    };
    /** Sent again (as the outbox does) until a hub answers it with something other than a 5xx. */
    const sendUntilAnswered = async (r: number, method: string, path: string, body?: unknown) => {
      for (;;) {
        const answer = await send(r, method, path, body);
        if (answer && answer.status < 500) return answer;
        await new Promise((done) => setTimeout(done, 50));
      }
    };

    const taken: { member: number; batch: string; items: string[] }[] = [];
    const decided = new Map<string, { kind: string; status: number; member: number }>();
    let answeredDecisions = 0;
    let lostTakes = 0;

    const decide = async (r: number, family: 'live' | 'data', id: string) => {
      const kind = kindOf(id);
      const path = `/v1/${family}/items/${id}/${kind}`;
      const answer = await sendUntilAnswered(r, 'POST', path, family === 'live' ? { subscription_id: LIVE } : undefined);
      expect([200, 202], `${path}: ${answer.status} ${JSON.stringify(answer.body)}`).toContain(answer.status);
      decided.set(id, { kind, status: answer.status, member: r });
      if (++answeredDecisions === KILL_AFTER) killed = killMidReview();
    };

    /** Holds hub A's next decision answer, then its next team-pull answer; kills A with both in flight; starts it again. */
    const killMidReview = async () => {
      const a = hubs[0]!;
      a.gate.hold('decision');
      await eventually(async () => a.gate.held.has('decision'), 20);
      a.gate.hold('pull');
      await eventually(async () => a.gate.held.has('pull'), 20);
      a.child!.kill('SIGKILL');
      await new Promise<void>((done) => a.child!.once('exit', () => done()));
      a.up = false;
      await start(a);
    };

    /** Rounds of: the team's pulls (the first PULL_ROUNDS), then a batch of each subscription, decided item by item. */
    const review = async (r: number) => {
      for (let round = 0; round < ROUNDS; round++) {
        if (round < PULL_ROUNDS) {
          for (const path of [`/v1/live/pull?subscription_id=${LIVE}&limit=6`, `/v1/data/pull?subscription_id=${SIM}&limit=6`]) {
            const answer = await sendUntilAnswered(r, 'GET', path);
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          }
        }
        for (const [subscription, family] of [
          [LIVE, 'live'],
          [SIM, 'data'],
        ] as const) {
          const answer = await send(r, 'POST', '/hub/v1/queue/take', { subscription_id: subscription, size: 4 });
          // A take whose answer was lost leaves a batch nobody works on (until it expires or an admin takes it back).
          if (!answer || answer.status >= 500) {
            lostTakes++;
            continue;
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          const batch = answer.body!.batch as { id: string; items: { item_id: string }[] };
          taken.push({ member: r, batch: batch.id, items: batch.items.map((i) => i.item_id) });
          for (const item of batch.items) await decide(r, family, item.item_id);
        }
      }
    };

    await Promise.all(REVIEWERS.map((_, r) => review(r)));
    await killed;
    expect(killed, 'hub A was killed').toBeDefined();
    expect([...hubs[0]!.gate.held.keys()].sort()).toEqual(['decision', 'pull']);

    // The restarted hub re-sends what the killed one left `sending`; every decision ends sent.
    await eventually(async () => (await store.db.selectFrom('decisions').select('id').where('state', 'in', ['queued', 'sending']).execute()).length === 0, 100);

    // --- The simulator's records.
    const sim = vendor.service.db;
    const inbox = await store.db.selectFrom('inbox_items').select(['family', 'item_id', 'subscription_id']).execute();
    const inboxOf = (sub: string) => new Set(inbox.filter((i) => i.subscription_id === sub).map((i) => i.item_id));
    // Live: what the incremental pulls delivered is the submissions up to the subscription's position, each pulled once.
    const { position, frontier_id } = sim.prepare('SELECT position, frontier_id FROM subscriptions WHERE subscription_id = ?').get(LIVE) as {
      position: number;
      frontier_id: string;
    };
    const delivered = (
      sim.prepare('SELECT submission_id FROM submissions WHERE frontier_id = ? AND seq <= ?').all(frontier_id, position) as {
        submission_id: string;
      }[]
    ).map((s) => s.submission_id);
    const pulledQuantity = (
      sim.prepare("SELECT COALESCE(SUM(quantity), 0) AS n FROM receipts WHERE kind = 'pull' AND subscription_id = ?").get(LIVE) as { n: number }
    ).n;
    expect(delivered.length).toBeGreaterThan(0);
    expect(pulledQuantity, 'items the vendor metered as pulled').toBe(delivered.length);
    // Every item the vendor delivered is in the team's inbox; a recovery of a lost pull whose size is unknown keeps up to a page (200) ahead.
    const liveInbox = inboxOf(LIVE);
    expect(
      delivered.filter((id) => !liveInbox.has(id)),
      'delivered items missing from the inbox',
    ).toEqual([]);
    const recoveries = hubs.reduce((n, h) => n + h.gate.seen.rereads, 0);
    expect(liveInbox.size - delivered.length, 'items kept ahead of the vendor position').toBeLessThanOrEqual(200 * recoveries);
    const readable = new Set(
      (sim.prepare('SELECT submission_id FROM submissions WHERE frontier_id = ?').all(frontier_id) as { submission_id: string }[]).map((s) => s.submission_id),
    );
    expect([...liveInbox].filter((id) => !readable.has(id))).toEqual([]);
    // The vendor's decisions are exactly the team's, as each reviewer made it: none lost, none extra.
    const byKind = (family: string) =>
      [...decided]
        .filter(([id]) => (family === 'live' ? liveInbox.has(id) : !liveInbox.has(id)))
        .map(([id, d]) => `${id} ${d.kind}`)
        .sort();
    const feedback = sim.prepare('SELECT submission_id, feedback FROM live_feedback WHERE subscription_id = ?').all(LIVE) as {
      submission_id: string;
      feedback: string;
    }[];
    expect(feedback.map((f) => `${f.submission_id} ${f.feedback}`).sort(), 'live decisions at the vendor').toEqual(byKind('live'));
    const simDecided = (
      sim.prepare("SELECT id, status, unit_price_micros FROM items WHERE subscription_id = ? AND status <> 'pending'").all(SIM) as {
        id: string;
        status: string;
        unit_price_micros: number;
      }[]
    ).filter((i) => !seededDecided.has(i.id));
    expect(simDecided.map((i) => `${i.id} ${i.status === 'adopted' ? 'adopt' : 'dispute'}`).sort(), 'simulated decisions at the vendor').toEqual(
      byKind('data'),
    );
    expect(simDecided.length).toBeGreaterThan(0);
    // Each adopt charged once, at its price; no dispute charged.
    const receipts = await adoptReceipts(vendor.url, vendor.credentials.api_key);
    for (const i of simDecided) expect(receipts.get(i.id) ?? [], `receipts of ${i.id}`).toEqual(i.status === 'adopted' ? [i.unit_price_micros] : []);
    const simItems = inboxOf(SIM);
    for (const i of simDecided) expect(simItems.has(i.id), `${i.id} in the inbox`).toBe(true);

    // --- The hub's tables.
    const decisions = await store.db.selectFrom('decisions').select(['item_id', 'state', 'member_id']).execute();
    expect(decisions.every((d) => d.state === 'sent')).toBe(true);
    expect(decisions.map((d) => d.item_id).sort(), 'one decision per item').toEqual([...decided.keys()].sort());
    // Every lease the queue granted (its lease.take rows) is a distinct item, but for the batches taken back and granted again.
    const takes = await store.db.selectFrom('audit').select('details').where('action', '=', 'lease.take').execute();
    const granted = takes.reduce((sum, t) => sum + Number((JSON.parse(t.details!) as { items: number }).items), 0);
    const leasedItems = await store.db.selectFrom('leases').select(['item_id', 'member_id']).execute();
    expect(granted - leasedItems.length, 'items leased twice').toBe(0);
    const answeredItems = taken.flatMap((t) => t.items);
    expect(answeredItems.length - new Set(answeredItems).size, 'items in two answered batches').toBe(0);
    // Each item was decided by the member holding its lease.
    const members = new Map((await store.db.selectFrom('members').select(['id', 'email']).execute()).map((m) => [m.id, m.email]));
    const holder = new Map(leasedItems.map((l) => [l.item_id, members.get(l.member_id)]));
    for (const d of decisions) expect(holder.get(d.item_id), d.item_id).toBe(members.get(d.member_id));

    const sends = new Map<string, number>();
    for (const h of hubs) for (const [path, n] of h.gate.seen.decisions) sends.set(path, (sends.get(path) ?? 0) + n);
    const resent = [...sends.values()].filter((n) => n > 1).length;
    console.log(
      `two hubs: ${decided.size} items decided (${delivered.length} live pulled in ${hubs.reduce((n, h) => n + h.gate.seen.pulls, 0)} pulls, ` +
        `${simDecided.length} simulated), ${hubs.reduce((n, h) => n + h.gate.seen.rereads, 0)} recovery re-read(s), ${resent} decision(s) re-sent after the kill (no-ops), ` +
        `${lostTakes} take answer(s) lost`,
    );
  });
});
