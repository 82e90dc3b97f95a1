import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { Kysely } from 'kysely';
import { HUB_EVENTS, hubEventsQuery } from '../../../src/api/contract/hub-events';
import { validQuery } from '../../http/validate';
import type { HubTables } from '../db/schema';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv, Principal } from '../http/context';
import { changeEvent, visibleTo, type StreamRow } from '../live/visibility';

/** A Last-Event-ID the stream gave: an audit seq. Anything else is ignored (a fresh start). */
const SEQ = /^\d{1,15}$/;

/** Rows replayed per read when a client resumes. */
const REPLAY_PAGE = 200;

/** A client this many writes behind (not reading) is let go: it reconnects with Last-Event-ID and loses nothing. */
const MAX_BACKLOG = 256;

/**
 * The caller as they are now, read again at every heartbeat: a stream outlives the request that
 * opened it, and a session ended, a token revoked or a member removed or demoted must not keep it.
 */
async function principalNow(db: Kysely<HubTables>, principal: Principal, now = Date.now()): Promise<Principal | null> {
  if (principal.token) {
    const token = await db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', principal.token.id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const member = token && (await db.selectFrom('members').selectAll().where('id', '=', token.member_id).where('removed_at', 'is', null).executeTakeFirst());
    return token && member ? { ...principal, token, member } : null;
  }
  if (principal.sessionId === undefined) return null;
  const member = await db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .selectAll('members')
    .where('sessions.id', '=', principal.sessionId)
    .where('sessions.expires_at', '>', now)
    .where('members.removed_at', 'is', null)
    .executeTakeFirst();
  return member ? { ...principal, member } : null;
}

/**
 * `GET /hub/v1/events`: the team's changes as server-sent events, for any member or token. Each
 * event is one audit row the caller may see (its id the row's seq); `ready` opens the stream at
 * the seq it continues from, `reset` says more was missed than is replayed (read everything again).
 */
export function eventsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();
  /** Open streams per member, in this process. */
  const open = new Map<string, number>();
  router.get('/events', validQuery(hubEventsQuery), async (c) => {
    let principal = allow(c, { token: true });
    const broker = ctx.events;
    if (!broker) throw new HubError('NOT_FOUND', 'this hub serves no event stream');
    if (broker.count() >= HUB_EVENTS.clients) {
      throw new HubError('TOO_MANY_STREAMS', 'this hub has as many open event streams as it serves: try again shortly', { 'Retry-After': '5' });
    }
    const memberId = principal.member.id;
    if ((open.get(memberId) ?? 0) >= HUB_EVENTS.perMember) {
      throw new HubError('TOO_MANY_STREAMS', `you have ${HUB_EVENTS.perMember} event streams open on this hub (a tab each): close some`, {
        'Retry-After': '5',
      });
    }
    const header = c.req.header('Last-Event-ID')?.trim();
    const asked = header !== undefined && SEQ.test(header) ? Number(header) : c.req.valid('query').after;
    // Read before the answer starts, so a database that is down is still the 503 envelope.
    const head = await broker.head();
    let start = asked === undefined ? head : Math.min(asked, head);
    const reset = head - start > HUB_EVENTS.replay;
    if (reset) start = head;

    open.set(memberId, (open.get(memberId) ?? 0) + 1);
    const opened = () => {
      const n = (open.get(memberId) ?? 1) - 1;
      if (n > 0) open.set(memberId, n);
      else open.delete(memberId);
    };
    const serve = async (stream: SSEStreamingApi) => {
      let last = start;
      let backlog = 0;
      let chain = Promise.resolve();
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const close = () => {
        finish();
        stream.abort();
      };
      const enqueue = (task: () => Promise<void>) => {
        if (++backlog > MAX_BACKLOG) return close();
        chain = chain
          .then(task)
          .catch((error: Error) => {
            ctx.log?.(`events: a stream ended: ${error.message}`);
            close();
          })
          .finally(() => backlog--);
      };
      const send = async (rows: StreamRow[]) => {
        for (const row of rows) {
          if (row.seq <= last || stream.aborted) continue;
          last = row.seq;
          if (visibleTo(principal, row)) await stream.writeSSE({ event: 'change', id: String(row.seq), data: JSON.stringify(changeEvent(row)) });
        }
      };

      await stream.writeSSE({ event: reset ? 'reset' : 'ready', id: String(start), data: JSON.stringify({ head: start }), retry: HUB_EVENTS.retryMs });
      const remove = broker.add({ last: start, deliver: (rows) => enqueue(() => send(rows)), end: close });
      if (!remove) return close();
      stream.onAbort(() => finish());
      // What was missed since Last-Event-ID, before anything fanned out from now on (the chain keeps the order).
      if (start < head)
        enqueue(async () => {
          for (;;) {
            const rows = await broker.read(last, REPLAY_PAGE);
            await send(rows);
            if (rows.length < REPLAY_PAGE) return;
          }
        });
      // Comments keep proxies from closing an idle stream; each is also when the caller is checked again.
      const heartbeat = setInterval(
        () =>
          enqueue(async () => {
            const now = await principalNow(ctx.db, principal);
            if (!now) return close();
            principal = now;
            await stream.write(': heartbeat\n\n');
          }),
        broker.heartbeatMs,
      );
      try {
        await finished;
      } finally {
        clearInterval(heartbeat);
        remove();
      }
    };
    return streamSSE(c, (stream) => serve(stream).finally(opened));
  });
  return router;
}
