import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { QueueFilters } from '../../../src/api/contract/hub-leases';
import type { HubTables } from '../db/schema';

/** The queue's filters (the items view's) as conditions on an inbox row, for the take and the counts. */

export type InboxEb = ExpressionBuilder<HubTables & { i: HubTables['inbox_items'] }, 'i'>;

const LIST_COLUMNS = { task: 'q_task', source: 'q_source', grade: 'q_grade', vertical: 'q_vertical', topic: 'q_topic' } as const;

const usdMicros = (usd: number) => Math.round(usd * 1_000_000);

/** Each list filter given: its column (unqualified) and values. */
export function listFilters(filters: QueueFilters) {
  const lists: { column: (typeof LIST_COLUMNS)[keyof typeof LIST_COLUMNS]; values: string[] }[] = [];
  for (const [key, column] of Object.entries(LIST_COLUMNS) as [keyof typeof LIST_COLUMNS, (typeof LIST_COLUMNS)[keyof typeof LIST_COLUMNS]][]) {
    const values = filters[key]?.split(',').filter(Boolean);
    if (values?.length) lists.push({ column, values });
  }
  return lists;
}

/** The filters as conditions on the inbox row `i` (the items view's meaning: ranges inclusive, lists any-of). */
export function filterConditions(eb: InboxEb, filters: QueueFilters): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filters.quality_min !== undefined) conditions.push(eb('i.q_quality', '>=', filters.quality_min));
  if (filters.quality_max !== undefined) conditions.push(eb('i.q_quality', '<=', filters.quality_max));
  if (filters.price_min !== undefined) conditions.push(eb('i.price_micros', '>=', usdMicros(filters.price_min)));
  if (filters.price_max !== undefined) conditions.push(eb('i.price_micros', '<=', usdMicros(filters.price_max)));
  for (const { column, values } of listFilters(filters)) conditions.push(eb(`i.${column}`, 'in', values));
  return conditions;
}
