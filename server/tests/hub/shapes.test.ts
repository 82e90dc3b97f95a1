import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Compilable, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../hub/db/postgres';
import type { HubTables } from '../../hub/db/schema';
import { shaped } from '../../hub/db/shaped';
import { openSqlite } from '../../hub/db/sqlite';
import { periodsAt } from '../../hub/decisions/periods';
import { itemSeenQuery } from '../../hub/routes/forward';
import { insertAuditQuery, insertAuditStatement, moveHeadQuery, moveHeadStatement } from '../../hub/store/audit';
import { limitsQuery, limitsStatement, spendQuery, spendStatement } from '../../hub/store/budgets';
import {
  activeDecisionQuery,
  activeDecisionStatement,
  insertDecisionStatement,
  newDecision,
  recordAnswerQuery,
  recordAnswerStatement,
} from '../../hub/store/decisions';
import { liveLeaseQuery, liveLeaseStatement } from '../../hub/store/leases';
import { spendBounds } from '../../hub/store/receipts';
import { sessionMemberQuery, sessionMemberStatement } from '../../hub/store/sessions';
import { vendorKeysQuery, vendorKeysStatement } from '../../hub/store/vendor-keys';
import { putVoteQuery, putVoteStatement, voteItemAndOverlapQuery, voteItemAndOverlapStatement } from '../../hub/store/votes';

/*
 * The decision path's statements are compiled once and only bound afterwards (db/shaped.ts): each
 * must be, on either engine, the very statement Kysely builds from the same values, first use and
 * every later one. Compiled only: no database is reached (PostgreSQL's pool connects on a query).
 */

const dir = mkdtempSync(join(tmpdir(), 'hub-shapes-'));
const engines: [string, Kysely<HubTables>][] = [
  ['sqlite', openSqlite(dir)],
  ['postgres', openPostgres('postgres://nobody@127.0.0.1:1/none')],
];
afterAll(async () => {
  for (const [, db] of engines) await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const decision = (id: number) => ({
  ...newDecision(
    {
      family: 'data',
      item_id: `item-${id}`,
      kind: 'adopt',
      subscription_id: id % 2 ? null : 'sub_sim_retail',
      reason: id % 2 ? null : 'why',
      body: null,
      price_micros: 1_000 + id,
      charged: 1,
      member_id: `mem-${id}`,
      via: 'session',
    },
    'sending',
    { now: 1_700_000_000_000 + id, countedAt: id % 2 ? null : 1_700_000_000_000 },
  ),
  id: `dec-${id}`,
});

const audit = (id: number) => ({
  seq: id,
  at: 1_700_000_000_000 + id,
  actor_id: id % 2 ? null : `mem-${id}`,
  via: 'session',
  action: 'v1.adopt',
  target: `/data/items/item-${id}/adopt`,
  subscription_id: 'sub_sim_retail',
  item_id: `item-${id}`,
  amount_micros: id % 2 ? null : 5_000,
  reason: null,
  outcome: 'accepted',
  details: '{"decision_id":"dec"}',
  prev_hash: `prev-${id}`,
  hash: `hash-${id}`,
});

/** Each shaped statement beside the same one built directly, for one use's values. */
const pairs: [string, (db: Kysely<HubTables>, n: number) => [Compilable, Compilable]][] = [
  ['session lookup', (db, n) => [sessionMemberStatement(db, { id: `s${n}`, now: n }), sessionMemberQuery(db, `s${n}`, n)]],
  ['vendor keys', (db) => [vendorKeysStatement(db, {}), vendorKeysQuery(db)]],
  ['item seen', (db, n) => [shaped(['itemId'], (d, v: { itemId: string }) => itemSeenQuery(d, v.itemId))(db, { itemId: `i${n}` }), itemSeenQuery(db, `i${n}`)]],
  ['active decision', (db, n) => [activeDecisionStatement(db, { family: 'data', itemId: `i${n}` }), activeDecisionQuery(db, 'data', `i${n}`)]],
  ['live lease', (db, n) => [liveLeaseStatement(db, { family: 'live', itemId: `i${n}`, now: n }), liveLeaseQuery(db, 'live', `i${n}`, n)]],
  [
    'vote item and overlap',
    (db, n) => [
      voteItemAndOverlapStatement(db, { family: 'data', itemId: `i${n}`, subscriptionId: `sub${n}` }),
      voteItemAndOverlapQuery(db, 'data', `i${n}`, `sub${n}`),
    ],
  ],
  ['limits', (db) => [limitsStatement(db, {}), limitsQuery(db)]],
  [
    'spend',
    (db, n) => [spendStatement(db, spendBounds(periodsAt(1_700_000_000_000 + n * 86_400_000))), spendQuery(db, periodsAt(1_700_000_000_000 + n * 86_400_000))],
  ],
  [
    'vote',
    (db, n) => {
      const row = {
        family: 'data' as const,
        item_id: `i${n}`,
        member_id: `m${n}`,
        subscription_id: null,
        vote: 'adopt' as const,
        reason: null,
        body: null,
        price_micros: n,
        at: n,
      };
      return [putVoteStatement(db, row), putVoteQuery(db, row)];
    },
  ],
  ['new decision', (db, n) => [insertDecisionStatement(db, decision(n)), db.insertInto('decisions').values(decision(n))]],
  [
    'answer recorded',
    (db, n) => {
      const answer = { id: `dec-${n}`, state: 'sent' as const, status: 200, body: `{"n":${n}}`, outcome: 'ok', sentAt: n % 2 ? null : n, now: n };
      return [recordAnswerStatement(db, answer), recordAnswerQuery(db, answer)];
    },
  ],
  [
    'audit head moved',
    (db, n) => {
      const move = { seq: n + 1, hash: `h${n + 1}`, knownSeq: n, knownHash: `h${n}` };
      return [moveHeadStatement(db, move), moveHeadQuery(db, move)];
    },
  ],
  ['audit row', (db, n) => [insertAuditStatement(db, audit(n)), insertAuditQuery(db, audit(n))]],
];

describe.each(engines)('statements compiled once on %s', (_engine, db) => {
  it.each(pairs)('%s: the same SQL and parameters as built directly, use after use', (_name, pair) => {
    for (const n of [1, 2, 3]) {
      const [once, built] = pair(db, n).map((q) => q.compile());
      expect({ sql: once!.sql, parameters: once!.parameters }).toEqual({ sql: built!.sql, parameters: built!.parameters });
    }
  });
});

describe('a shaped statement refuses what it cannot bind', () => {
  const db = engines[0]![1];
  it('a value used in a computation while building', () => {
    const summed = shaped(['at'], (d, v: { at: number }) =>
      d
        .selectFrom('audit')
        .selectAll()
        .where('at', '<', v.at + 1),
    );
    expect(() => summed(db, { at: 1 })).toThrow(/at used in a computation/);
  });
  it('a value never bound as a parameter', () => {
    const unused = shaped(['at'], (d) =>
      d
        .selectFrom('audit')
        .selectAll()
        .where(sql<boolean>`true`),
    );
    expect(() => unused(db, { at: 1 })).toThrow(/at not bound as parameters/);
  });
  it('a value missing at a run', () => {
    const byAt = shaped(['at'], (d, v: { at: number }) => d.selectFrom('audit').selectAll().where('at', '=', v.at));
    expect(() => byAt(db, {} as { at: number })).toThrow(/no value for at/);
  });
});
