import type { Kysely } from 'kysely';
import { HUB_EVENTS } from '../../../src/api/contract/hub-events';
import type { Engine, HubTables } from '../db/schema';
import type { StreamRow } from './visibility';

/**
 * The team's change stream in one hub process: the audit log's tail, read once per wake-up and
 * fanned out to every open stream. Audit seqs are handed out under the audit_head row lock, so
 * they become visible in seq order on either engine: reading "after the last seq" misses nothing,
 * whichever process wrote the row.
 *
 * Wake-ups: this process's own requests (`wake()` after every state change), PostgreSQL's NOTIFY
 * from the audit trigger (another hub, the CLI: pg-listen.ts), and a poll of audit_head while
 * anyone listens (short on SQLite, where nothing else tells; long on PostgreSQL, a safety net for
 * a LISTEN connection that was down).
 */

const READ_PAGE = 500;

interface Subscriber {
  /** The last seq this subscriber was given (or skipped as not visible). */
  last: number;
  /** Rows after `last`, in order; may be called again before the previous call resolved (it queues). */
  deliver: (rows: StreamRow[]) => void;
  /** The broker stops (shutdown) or the subscriber fell too far behind: end the stream. */
  end: () => void;
}

export interface Broker {
  /** The seq of the newest audit row (the stream starts after it when the client names none). */
  head: () => Promise<number>;
  /** Rows after `after` (at most `limit`), with their actor's email. */
  read: (after: number, limit: number) => Promise<StreamRow[]>;
  /** null when the cap on open streams is reached. */
  add: (subscriber: Subscriber) => (() => void) | null;
  /** Something may have been appended: read the tail soon. */
  wake: () => void;
  count: () => number;
  /** How often an idle stream gets a comment (and its caller is checked again). */
  heartbeatMs: number;
  stop: () => void;
}

export interface BrokerOptions {
  db: Kysely<HubTables>;
  engine: Engine;
  /** How often audit_head is read while anyone listens: 200 ms on SQLite, 5 s on PostgreSQL by default. */
  pollMs?: number;
  maxClients?: number;
  heartbeatMs?: number;
  log?: (line: string) => void;
}

export function createBroker(options: BrokerOptions): Broker {
  const { db } = options;
  const pollMs = options.pollMs ?? (options.engine === 'sqlite' ? 200 : 5_000);
  const maxClients = options.maxClients ?? HUB_EVENTS.clients;
  const subscribers = new Set<Subscriber>();
  /** The last seq read and fanned out; -1 until a first listener or read sets it. */
  let dispatched = -1;
  let running: Promise<void> | null = null;
  let again = false;
  let poll: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const head = async () => (await db.selectFrom('audit_head').select('seq').where('id', '=', 1).executeTakeFirstOrThrow()).seq;

  const read = (after: number, limit: number): Promise<StreamRow[]> =>
    db
      .selectFrom('audit')
      .leftJoin('members', 'members.id', 'audit.actor_id')
      .select([
        'audit.seq',
        'audit.at',
        'audit.action',
        'audit.subscription_id',
        'audit.item_id',
        'audit.target',
        'audit.actor_id',
        'members.email as actor_email',
        'audit.outcome',
        'audit.details',
      ])
      .where('audit.seq', '>', after)
      .orderBy('audit.seq')
      .limit(limit)
      .execute();

  async function drain(): Promise<void> {
    if (dispatched < 0) dispatched = await head();
    for (;;) {
      const rows = await read(dispatched, READ_PAGE);
      if (rows.length === 0) return;
      // Fan out and move on in one synchronous step: a subscriber added meanwhile replays up to
      // its own `last` and then gets the rest from here, never a row twice or none.
      dispatched = rows[rows.length - 1]!.seq;
      for (const subscriber of subscribers) subscriber.deliver(rows);
      if (rows.length < READ_PAGE) return;
    }
  }

  function wake(): void {
    if (stopped || subscribers.size === 0) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: Error) => options.log?.(`events: reading the audit tail failed: ${error.message}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    head,
    read,
    wake,
    count: () => subscribers.size,
    heartbeatMs: options.heartbeatMs ?? HUB_EVENTS.heartbeatMs,
    add(subscriber) {
      if (stopped || subscribers.size >= maxClients) return null;
      // The first listener sets where the tail is read from; a later one replays up to the tail
      // itself (rows at or before its `last` are skipped when fanned out to it).
      if (subscribers.size === 0) dispatched = subscriber.last;
      subscribers.add(subscriber);
      poll ??= setInterval(wake, pollMs);
      poll.unref?.();
      return () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0 && poll) {
          clearInterval(poll);
          poll = null;
          // Nobody listens: the next first subscriber reads the head afresh.
          dispatched = -1;
        }
      };
    },
    stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      poll = null;
      for (const subscriber of [...subscribers]) subscriber.end();
      subscribers.clear();
    },
  };
}
