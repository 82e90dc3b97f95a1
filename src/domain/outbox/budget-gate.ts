import { BUDGETS_MARKER, BUDGETS_SETTING, readBudgetsDocument } from '../budgets/budgets-document';
import { hasLimits, NO_BUDGETS, type Budgets } from '../budgets/model';
import { decideCharges, type SpendReceipt } from '../budgets/spend';
import { onBudgetsChange } from '../budgets/store';
import { CLOCK_SETTING, keptTime, keptValue, trustedTime } from '../budgets/trusted-clock';
import type { ConsoleDb } from '../store';
import type { BudgetGate } from './engine';
import { outboxEntrySchema, type OutboxEntry } from './model';
import { move } from './transitions';

export interface BudgetGateDeps {
  /** The organization's newest receipts (usage), or null when they cannot be read now. */
  receipts: (scope: string) => Promise<readonly SpendReceipt[] | null>;
  /** For tests: the database (the console's own by default). */
  db?: ConsoleDb;
  /** Web Locks; null: none (the IndexedDB transaction alone serialises the tabs). */
  locks?: Pick<LockManager, 'request'> | null;
  now?: () => number;
}

/** Receipts are read at most this often per scope: a decision the outbox holds is counted by the outbox meanwhile. */
const RECEIPTS_FRESH_MS = 5_000;

const DAMAGED = 'damaged' as const;
/** While the time is in doubt, held decisions are weighed again this often (the clock may have been put right). */
const DOUBT_RECHECK_MS = 30_000;

/** The stored row's clearance is the one this tab holds (none, or the same not released one). */
const sameClearance = (row: OutboxEntry['budget'], held: OutboxEntry['budget']) =>
  row === undefined ? held === undefined : held !== undefined && !held.released && !row.released && row.at === held.at && row.tab === held.tab;

const parseRow = (row: unknown): OutboxEntry[] => {
  const parsed = outboxEntrySchema.safeParse(row);
  return parsed.success ? [parsed.data] : [];
};

/** Held because the time is in doubt: no period can be told, so nothing charged is weighed. */
function heldForClock(entry: OutboxEntry, trustedAt: number, localAt: number): OutboxEntry {
  const { heldBy: _was, budget: _cleared, heldClock: _before, ...bare } = entry;
  return move<OutboxEntry>(bare, 'gate-held', 'held-budget', { heldClock: { trustedAt, localAt } });
}

/** The verdict written into the entry: cleared (counted as spend from `now`, sent when due) or held with its reason. */
function applyVerdict(entry: OutboxEntry, verdict: ReturnType<typeof decideCharges>[number], now: number, tab: string): OutboxEntry {
  const { heldBy: _was, heldClock: _doubt, ...rest } = entry;
  if (verdict.outcome === 'held') {
    // Held, a clearance it had (a lowered limit) is gone: it is not spend.
    const { budget: _cleared, ...bare } = rest;
    return move<OutboxEntry>(bare, 'gate-held', 'held-budget', { heldBy: verdict.heldBy });
  }
  const wasHeld = entry.state === 'held-budget';
  return move<OutboxEntry>(rest, 'gate-cleared', wasHeld ? 'queued' : entry.state, {
    nextAttemptAt: wasHeld ? now : entry.nextAttemptAt,
    budget: { at: now, tab },
  });
}

/**
 * The outbox's budget gate over the local store. Which scopes have limits is kept in memory (read
 * once per scope, again when budgets change), so a decision no limit applies to costs nothing. A
 * batch is decided under the Web Lock `dds-budget:<scope>` and, inside it, in one IndexedDB
 * transaction that reads the budgets and every tab's stored decisions of the scope and writes the
 * verdicts: a decision cleared in one tab is spend for the next tab's batch.
 */
export function budgetGate(deps: BudgetGateDeps): BudgetGate {
  const now = deps.now ?? (() => Date.now());
  const locks = deps.locks === undefined ? (typeof navigator === 'undefined' ? null : (navigator.locks ?? null)) : deps.locks;
  let opened = deps.db;
  const database = async () => (opened ??= (await import('../store')).localDb());
  // null: no budgets stored; DAMAGED: a document is stored that cannot be read (a limit the user
  // set, never taken for "no limit": nothing charged leaves until the budgets are saved again).
  const known = new Map<string, Budgets | null | typeof DAMAGED>();
  const receipts = new Map<string, { at: number; list: readonly SpendReceipt[] }>();
  const listeners = new Set<(scope: string) => void>();

  const readStored = async (db: ConsoleDb, scope: string) => {
    const [document, marker, clock] = await db.settings.bulkGet([
      [scope, BUDGETS_SETTING],
      [scope, BUDGETS_MARKER],
      [scope, CLOCK_SETTING],
    ]);
    const read = readBudgetsDocument(document, marker);
    const budgets: Budgets | typeof DAMAGED | null = read.status === 'ok' ? read.budgets : read.status === 'damaged' ? DAMAGED : null;
    return { budgets, kept: keptTime(clock?.value) };
  };
  const load = async (scope: string) => {
    known.set(scope, (await readStored(await database(), scope)).budgets);
  };
  const tell = (scope: string) => {
    for (const listener of listeners) listener(scope);
  };
  onBudgetsChange((scope) => {
    void load(scope)
      .catch(() => known.delete(scope))
      .finally(() => tell(scope));
  });

  const receiptsOf = async (scope: string): Promise<readonly SpendReceipt[]> => {
    const cached = receipts.get(scope);
    // A clock set back makes the age negative: that is not fresh.
    if (cached && now() - cached.at >= 0 && now() - cached.at < RECEIPTS_FRESH_MS) return cached.list;
    const list = await deps.receipts(scope).catch(() => null);
    // Unreadable (offline, refused): the last ones read, else none; the outbox's own decisions still count.
    if (!list) return cached?.list ?? [];
    receipts.set(scope, { at: now(), list });
    return list;
  };

  const underLock = <T>(name: string, run: () => Promise<T>): Promise<T> => (locks ? (locks.request(name, run) as Promise<T>) : run());

  return {
    applies(scope, subscriptionId) {
      if (!known.has(scope)) {
        // Not read yet: the first batch reads it (and decides); afterwards it is known.
        return true;
      }
      const budgets = known.get(scope) ?? null;
      return budgets === DAMAGED || hasLimits(budgets, subscriptionId);
    },
    async decide(scope, candidates, tab) {
      // Budgets not read yet: read them first; when no limit applies the batch goes as it is, with no receipts read.
      if (!known.has(scope)) await load(scope);
      const budgetsNow = known.get(scope) ?? null;
      if (budgetsNow !== DAMAGED && !candidates.some((c) => c.state === 'held-budget' || hasLimits(budgetsNow, c.subscriptionId))) return [...candidates];
      const receiptList = await receiptsOf(scope);
      return underLock(`dds-budget:${scope}`, async () => {
        const db = await database();
        return db.transaction('rw', [db.decisions, db.settings], async () => {
          const stored = await readStored(db, scope);
          known.set(scope, stored.budgets);
          // The engine keeps the charged decisions unsent and asks again shortly.
          if (stored.budgets === DAMAGED) throw new Error('the stored budgets are damaged: nothing charged is sent until they are saved again');
          const budgets = stored.budgets;
          const rows = (await db.decisions.where('scope').equals(scope).toArray()).flatMap(parseRow);
          const byId = new Map(rows.map((r) => [r.id, r]));
          // Only a candidate whose stored row is what this tab holds: anything else changed meanwhile.
          // One cleared before and not sent yet (a limit changed) is weighed again, not counted as spend.
          const fresh = candidates.filter((c) => {
            const row = byId.get(c.id);
            return row !== undefined && row.state === c.state && row.owner === c.owner && sameClearance(row.budget, c.budget);
          });
          if (fresh.length === 0) return [];
          const weighed = new Set(fresh.map((c) => c.id));
          const others = rows.filter((r) => !weighed.has(r.id));
          // Periods are counted in trusted time: a clock set back never opens a new day or month.
          const time = trustedTime(now(), stored.kept, receiptList, others);
          if (time.doubt) {
            const held = fresh.map((c) => heldForClock(c, time.now, time.local));
            await db.decisions.bulkPut(held.map((e) => ({ ...e })));
            // Weighed again shortly: the clock may be put right meanwhile.
            setTimeout(() => tell(scope), DOUBT_RECHECK_MS);
            return held;
          }
          const at = time.now;
          const verdicts = decideCharges(budgets ?? NO_BUDGETS, { receipts: receiptList, decisions: others, now: at, tab }, fresh);
          const decided = fresh.map((c, i) => applyVerdict(c, verdicts[i]!, at, tab));
          await db.decisions.bulkPut(decided.map((e) => ({ ...e })));
          // The newest time used, kept: a reload with the clock set back still knows it.
          if (at > stored.kept) await db.settings.put({ scope, name: CLOCK_SETTING, value: keptValue(at), updatedAt: at });
          return decided;
        });
      });
    },
    onChange(listener) {
      listeners.add(listener);
    },
  };
}
