import type { ConsoleDb, PullRecord } from './db';

/** Writes what a pull did (an answer lost included), so a reload still knows there is a gap. */
export async function recordPull(db: ConsoleDb, record: Omit<PullRecord, 'id'>): Promise<void> {
  await db.pulls.add(record);
}

/**
 * The incremental pulls whose answer never arrived since the last Recover: the service may have
 * moved this subscription past items the console never received.
 */
export async function unrecoveredLosses(db: ConsoleDb, scope: string, subscriptionId: string): Promise<PullRecord[]> {
  const log = await db.pulls.where('[scope+subscriptionId]').equals([scope, subscriptionId]).sortBy('at');
  const lastRecover = log.findLastIndex((p) => p.mode === 'recover' && p.outcome === 'ok');
  return log.slice(lastRecover + 1).filter((p) => p.mode === 'incremental' && (p.outcome === 'lost' || p.outcome === 'not-stored'));
}
