import { ApiError, ContractError, NetworkError } from '../../api/errors';
import type { LivePullPage, LiveSubmission } from '../../api/contract';
import type { DdsClient } from '../../api/client';
import { ensureRoom, heldIds, recordPull, saveDelivered, summaryOfLive, type ConsoleDb, type SaveResult } from '../../domain/store';
import { rememberRecords } from './content-cache';

/**
 * Live pulls that keep what they receive. An incremental pull moves the subscription's position
 * on the service: its items are never delivered again, so they are written to the local store
 * before anything shows them, and a pull whose answer is lost is reported, never retried.
 */
export interface LivePullDeps {
  db: ConsoleDb;
  scope: string;
  client: Pick<DdsClient, 'pullLive'>;
  subscriptionId: string;
  now?: () => number;
}

/** The answer of an incremental pull never arrived (or could not be read): the position may have moved. */
export class AnswerLostError extends Error {
  override readonly name = 'AnswerLostError';
  readonly title = 'Answer lost: the service may have moved forward';
}

/** The page arrived but could not be written: it is handed back so it can be saved as a file. */
export class NotStoredError extends Error {
  override readonly name = 'NotStoredError';
  readonly title = 'Pulled, but not saved on this device';
  constructor(
    message: string,
    readonly page: LivePullPage,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** A generous size of one delivered record, for the room check before a pull. */
const ROOM_PER_ITEM = 64 * 1024;

/** Whether the service may have served the pull although no usable answer reached us. */
function mayHaveMoved(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof ContractError || (error instanceof ApiError && error.status >= 500);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const toDelivered = (items: readonly LiveSubmission[]) => items.map((s) => ({ summary: summaryOfLive(s), record: s }));

export interface NewPage extends SaveResult {
  page: LivePullPage;
}

/**
 * One incremental pull: room checked first, the page stored before it is returned (listed from
 * memory while its write runs). Its write starts at once, never after a frame as a re-read page's
 * may (`paintFirst`): the position has moved, so a page lost with its tab comes back only by Recover.
 */
export async function pullNew(deps: LivePullDeps, limit: number): Promise<NewPage> {
  const { db, scope, client, subscriptionId } = deps;
  const now = deps.now ?? Date.now;
  await ensureRoom(limit * ROOM_PER_ITEM);
  let page: LivePullPage;
  try {
    page = await client.pullLive({ subscription_id: subscriptionId, limit });
  } catch (error) {
    if (!mayHaveMoved(error)) throw error;
    await recordPull(db, { scope, subscriptionId, at: now(), mode: 'incremental', outcome: 'lost', count: 0, note: describe(error) }).catch(() => undefined);
    throw new AnswerLostError(
      `The answer to this pull was lost (${describe(error)}). The service may have moved this subscription forward past items the console never received. Recover re-reads from the beginning and keeps every item not received yet.`,
      { cause: error },
    );
  }
  // Remembered before the write: the list shows the page as the write starts (from the rows it
  // writes), and the focused item's content then comes from memory, not from a read.
  rememberRecords(
    db,
    scope,
    subscriptionId,
    'live',
    page.items.map((s) => ({ id: s.submission_id, record: s })),
  );
  try {
    const writing = performance.now();
    const saved = await saveDelivered(db, scope, subscriptionId, 'incremental', toDelivered(page.items), now());
    // Measured for `npm run bench:store` (User Timing costs nothing when nobody reads it).
    performance.measure('dds:store-page', { start: writing, detail: { items: page.items.length } });
    await recordPull(db, { scope, subscriptionId, at: now(), mode: 'incremental', outcome: 'ok', count: page.items.length });
    return { ...saved, page };
  } catch (error) {
    await recordPull(db, {
      scope,
      subscriptionId,
      at: now(),
      mode: 'incremental',
      outcome: 'not-stored',
      count: page.items.length,
      note: describe(error),
    }).catch(() => undefined);
    throw new NotStoredError(`${page.items.length} delivered items could not be written to this browser's storage (${describe(error)}).`, page, error);
  }
}

export interface Progress {
  pages: number;
  read: number;
  added: number;
  done: boolean;
}

/** Pulls until the service has nothing more. Cancel stops after the page in flight: aborting one would lose its answer. */
export async function pullAllNew(deps: LivePullDeps, limit: number, onProgress: (p: Progress) => void, cancelled: () => boolean): Promise<Progress> {
  const progress: Progress = { pages: 0, read: 0, added: 0, done: false };
  while (!cancelled()) {
    const { page, added } = await pullNew(deps, limit);
    progress.pages++;
    progress.read += page.items.length;
    progress.added += added;
    progress.done = !page.hasMore;
    onProgress({ ...progress });
    if (progress.done) break;
  }
  return progress;
}

/**
 * Recover: reads everything readable from the beginning (a re-read does not move the position)
 * and keeps each item the store does not hold yet and on which no decision is recorded.
 */
export async function recover(deps: LivePullDeps, onProgress: (p: Progress) => void, signal?: AbortSignal): Promise<Progress> {
  const { db, scope, client, subscriptionId } = deps;
  const now = deps.now ?? Date.now;
  const progress: Progress = { pages: 0, read: 0, added: 0, done: false };
  let cursor: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const page = await client.pullLive({ subscription_id: subscriptionId, limit: 200, from: 'beginning', cursor }, signal);
    const held = await heldIds(
      db,
      scope,
      subscriptionId,
      page.items.map((i) => i.submission_id),
    );
    const missing = page.items.filter((i) => !held.has(i.submission_id) && !i.consumer_feedback);
    const { added } = await saveDelivered(db, scope, subscriptionId, 'recover', toDelivered(missing), now());
    progress.pages++;
    progress.read += page.items.length;
    progress.added += added;
    progress.done = !page.hasMore || !page.nextCursor;
    onProgress({ ...progress });
    if (progress.done) break;
    cursor = page.nextCursor ?? undefined;
  }
  await recordPull(db, { scope, subscriptionId, at: now(), mode: 'recover', outcome: 'ok', count: progress.added });
  return progress;
}
