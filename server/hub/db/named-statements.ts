import { createHash } from 'node:crypto';
import type pg from 'pg';

/*
 * The hub's statements prepared once per connection, not parsed and planned at every call.
 *
 * node-postgres sends a statement with no name as an unnamed one: PostgreSQL parses it and, at
 * its Bind, plans it again each time. Measured on a decision (issue 25's bench:hub), parsing and
 * planning its dozen statements took about as long as running them: the session's lookup 0.3 ms,
 * the budget's spend 0.3 ms, the item's sources 0.25 ms. A hub asks the same few dozen statements
 * over and over (Kysely compiles each query shape to the same text), so each is named by its text
 * and prepared on a connection the first time it runs there: from then on only Bind and Execute,
 * and after five runs PostgreSQL may keep one generic plan.
 *
 * Only plain statements with a bounded number of parameters are named: transaction control and
 * schema changes run as before, and a statement whose text grows with its input (a pull's
 * multi-row insert) would only fill the connection with statements used once. Each connection
 * names at most MAX_PER_CONNECTION; past that, statements run unnamed as before.
 *
 * A prepared `select *` fails once its table's columns change under it ("cached plan must not
 * change result type", SQLSTATE 0A000): another hub on the same database migrating it. That
 * statement's request fails (a 503; the browser's outbox keeps a decision), and the connection
 * names its statements anew from then on, so the next request prepares them against the new schema.
 * The same for a statement the server dropped (STALE below).
 *
 * A value the planner must see to use a partial index (`where decided = 0`) is written into the
 * statement as a literal, never bound: a generic plan is made without the parameters' values.
 */

const NAMED = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * A named statement's failures that the same name would repeat: 0A000 (its cached plan changed
 * result type; judged by code, not by the message, which the server's locale translates) and 26000
 * (the server no longer has it: a DEALLOCATE, DISCARD ALL or a pooler dropped it, which
 * node-postgres, keeping the name as prepared, would never notice).
 */
const STALE = new Set(['0A000', '26000']);
const MAX_PARAMETERS = 64;
const MAX_PER_CONNECTION = 256;
/** Texts whose name is known; cleared when full (names are recomputed, never reused for other text). */
const MAX_KNOWN_TEXTS = 4_096;

type Query = (...args: unknown[]) => Promise<unknown>;

/** A pool's namer: `name(client)` on each new client. */
export function namedStatements() {
  const known = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = known.get(text);
    if (name === undefined) {
      if (known.size >= MAX_KNOWN_TEXTS) known.clear();
      name = createHash('sha1').update(text).digest('base64url').slice(0, 24);
      known.set(text, name);
    }
    return name;
  };
  return function name(client: pg.PoolClient): void {
    const query = client.query.bind(client) as Query;
    /** Names this connection has used (prepared, or being prepared). */
    const used = new Set<string>();
    let generation = 0;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || values.length > MAX_PARAMETERS || !NAMED.test(text)) {
        return query(...args);
      }
      const name = `hub_${nameOf(text)}_${generation}`;
      if (!used.has(name)) {
        if (used.size >= MAX_PER_CONNECTION) return query(...args);
        used.add(name);
      }
      return query({ name, text, values }).catch((error: unknown) => {
        if (STALE.has((error as { code?: unknown }).code as string)) {
          generation++;
          used.clear();
        }
        throw error;
      });
    };
  };
}
