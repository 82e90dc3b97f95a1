import type { Kysely, Selectable } from 'kysely';
import { newId } from '../../lib/ids';
import type { HoldsTable, HubTables } from '../db/schema';

type HoldRow = Selectable<HoldsTable>;

export async function insertHold(db: Kysely<HubTables>, decisionId: string, limitName: string, now: number): Promise<HoldRow> {
  const row: HoldRow = {
    id: newId('hold'),
    decision_id: decisionId,
    limit_name: limitName,
    created_at: now,
    resolved_at: null,
    resolved_by: null,
    resolution: null,
  };
  await db.insertInto('holds').values(row).execute();
  return row;
}

export const holdOfDecision = (db: Kysely<HubTables>, decisionId: string) =>
  db.selectFrom('holds').selectAll().where('decision_id', '=', decisionId).executeTakeFirst();

/** A hold with its decision and who made it: what the holds endpoints show. */
export function holdsQuery(db: Kysely<HubTables>) {
  return (
    db
      .selectFrom('holds')
      .innerJoin('decisions', 'decisions.id', 'holds.decision_id')
      .innerJoin('members', 'members.id', 'decisions.member_id')
      // Who released or dropped it, by email: a reviewer may not list the members to look them up.
      .leftJoin('members as resolver', 'resolver.id', 'holds.resolved_by')
      .select([
        'holds.id',
        'holds.decision_id',
        'holds.limit_name',
        'holds.created_at',
        'holds.resolved_at',
        'holds.resolved_by',
        'holds.resolution',
        'decisions.family',
        'decisions.item_id',
        'decisions.kind',
        'decisions.subscription_id',
        'decisions.price_micros',
        'decisions.member_id',
        'decisions.state',
        'decisions.outcome',
        'members.email',
        'resolver.email as resolved_by_email',
      ])
  );
}

export type HoldDetail = Awaited<ReturnType<ReturnType<typeof holdsQuery>['executeTakeFirstOrThrow']>>;

/** Marks a hold released or dropped, only while it is open; false when someone resolved it first. */
export async function resolveHold(db: Kysely<HubTables>, id: string, resolution: 'released' | 'dropped', by: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('holds')
    .set({ resolution, resolved_by: by, resolved_at: now })
    .where('id', '=', id)
    .where('resolution', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
