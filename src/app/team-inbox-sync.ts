import { liveSubmissionSchema, simulatedItemSchema } from '../api/contract';
import { inboxResponse, type InboxItem } from '../api/contract/hub-inbox';
import { hubCall } from '../api/hub';
import type { Connection } from '../data';
import type { Delivered, DeliveryVia } from '../domain/store';
import type { ApplyTeamDecisions } from './team-decisions-sync';
import { TEAM_INBOX_SYNC_EVENT, type TeamInboxSyncRequest } from './team-inbox-request';

/*
 * Hub mode: the team's shared inbox (GET /hub/v1/inbox) copied into this browser's store, so the
 * items a teammate pulled (or the hub's schedule did) are listed, reviewed and counted here
 * without pulling. Per subscription, the cursor (the last seq kept) is a setting of the scope, so
 * a reload or another tab goes on from it. Runs at start, on focus, every `intervalMs` while the
 * tab is visible and the change stream is not live, and whenever `requestTeamInboxSync()` is called (opening a subscription, the
 * live change stream).
 */

const INTERVAL_MS = 10_000;
const PAGE = 500;

const VIA: Record<InboxItem['arrived_how'], DeliveryVia> = {
  pull: 'incremental',
  schedule: 'incremental',
  reread: 'reread',
  recover: 'recover',
  pending: 'pending',
  delivery: 'delivery',
};

const cursorName = (subscriptionId: string) => `team-inbox:${subscriptionId}`;
const parseCursor = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/** Copies one subscription's new inbox items into the store; returns how many it read. */
async function syncSubscription(scope: string, subscriptionId: string, kind: 'live' | 'simulated', closeDecided?: CloseDecided): Promise<number> {
  const { localDb, readSetting, saveDelivered, summaryOfLive, summaryOfSimulated, writeSetting } = await import('../domain/store');
  let after = (await readSetting(scope, cursorName(subscriptionId), parseCursor)) ?? 0;
  let read = 0;
  for (;;) {
    const page = await hubCall(inboxResponse, `/inbox?subscription_id=${encodeURIComponent(subscriptionId)}&after=${after}&limit=${PAGE}`);
    // Grouped by how they came (the store keeps that per item); a record that is not the vendor's shape is left out.
    const groups = new Map<DeliveryVia, Delivered[]>();
    for (const entry of page.items) {
      const delivered = toDelivered(entry, kind, summaryOfLive, summaryOfSimulated);
      if (!delivered) continue;
      const via = VIA[entry.arrived_how];
      groups.set(via, [...(groups.get(via) ?? []), delivered]);
    }
    for (const [via, items] of groups) await saveDelivered(localDb(), scope, subscriptionId, via, items);
    // A decision the feed brought before its item (a decisions-only round racing a pull): the item is not open.
    await closeDecided?.(
      scope,
      subscriptionId,
      [...groups.values()].flat().map((d) => d.summary.itemId),
    );
    read += page.items.length;
    if (page.next !== after) await writeSetting(scope, cursorName(subscriptionId), page.next);
    after = page.next;
    if (!page.has_more) return read;
  }
}

function toDelivered(
  entry: InboxItem,
  kind: 'live' | 'simulated',
  live: typeof import('../domain/store').summaryOfLive,
  simulated: typeof import('../domain/store').summaryOfSimulated,
): Delivered | null {
  if (kind === 'live') {
    const parsed = liveSubmissionSchema.safeParse(entry.item);
    return parsed.success ? { summary: live(parsed.data), record: parsed.data } : null;
  }
  const parsed = simulatedItemSchema.safeParse(entry.item);
  return parsed.success ? { summary: simulated(parsed.data), record: parsed.data } : null;
}

export interface TeamInboxSyncDeps {
  /** The hub connections (one in hub mode) and their local scope, when known. */
  connections: () => readonly Connection[];
  scopeOf: (connection: Connection) => Promise<string | null>;
  /** Records the team's decisions (the outbox's `applyTeamDecisions`): read after the items, so their rows exist. */
  decisions?: ApplyTeamDecisions;
  /** Items just stored that a decision already stands on are not open (the outbox's `closeDecided`). */
  closeDecided?: CloseDecided;
  intervalMs?: number;
  /** Whether hub mode's change stream is live: then the interval reads nothing (the stream asks for each round). */
  isLive?: () => boolean;
}

type CloseDecided = (scope: string, subscriptionId: string, itemIds: readonly string[]) => Promise<unknown>;

export function startTeamInboxSync({ connections, scopeOf, decisions, closeDecided, intervalMs = INTERVAL_MS, isLive }: TeamInboxSyncDeps): () => void {
  let running: Promise<void> | null = null;
  /** The last round failed (a 5xx, offline): the interval tries again even while the stream is live, which asks only at its next event. */
  let failed = false;
  /** Asked while a round ran: one more round after it, of the items too unless every ask was for decisions only. */
  let again: { items: boolean } | null = null;
  const run = (only?: string, items = true): void => {
    if (running) {
      again = { items: (again?.items ?? false) || items };
      return;
    }
    running = (async () => {
      try {
        const { syncTeamDecisions } = decisions ? await import('./team-decisions-sync') : { syncTeamDecisions: null };
        for (const connection of connections()) {
          const scope = connection.hub ? await scopeOf(connection) : null;
          if (!scope) continue;
          for (const s of connection.subscriptions) {
            if (only && s.id !== only) continue;
            if (items) await syncSubscription(scope, s.id, s.kind, closeDecided);
            if (decisions && syncTeamDecisions) await syncTeamDecisions(scope, s.id, connection.id, decisions);
          }
        }
        failed = false;
      } catch {
        // Offline or signed out (the session's own handling says so): the next round tries again.
        failed = true;
      } finally {
        running = null;
        if (again) {
          const next = again;
          again = null;
          run(undefined, next.items);
        }
      }
    })();
  };
  const visible = () => document.visibilityState === 'visible';
  const shown = () => visible() && run();
  const asked = (event: Event) => {
    const detail = (event as CustomEvent<TeamInboxSyncRequest>).detail;
    run(detail?.subscriptionId, detail?.what !== 'decisions');
  };
  const timer = setInterval(() => visible() && (failed || !isLive?.()) && run(), intervalMs);
  window.addEventListener('focus', shown);
  document.addEventListener('visibilitychange', shown);
  window.addEventListener(TEAM_INBOX_SYNC_EVENT, asked);
  run();
  return () => {
    clearInterval(timer);
    window.removeEventListener('focus', shown);
    document.removeEventListener('visibilitychange', shown);
    window.removeEventListener(TEAM_INBOX_SYNC_EVENT, asked);
  };
}
