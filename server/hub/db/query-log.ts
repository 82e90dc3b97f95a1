import type { KyselyConfig, LogEvent } from 'kysely';

/**
 * Kysely's `log` for a statement listener: every query the store runs, transaction control
 * included (Kysely logs on the connection, which BEGIN and COMMIT go through too). Absent when
 * nobody listens, so the hub pays nothing for it.
 */
export function queryLog(onQuery: ((sql: string) => void) | undefined): Pick<KyselyConfig, 'log'> {
  if (!onQuery) return {};
  return { log: (event: LogEvent) => onQuery(event.query.sql) };
}
