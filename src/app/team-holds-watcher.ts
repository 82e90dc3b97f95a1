import type { TeamHold } from '../domain/outbox/team-holds';

/**
 * Hub mode: tells the outbox what became of the adopts the team hub holds (src/domain/outbox/
 * team-holds.ts). While any decision of the member is the hub's (held there, or released and
 * waiting to send there), it reads `GET /hub/v1/holds?state=all` at once, then every `intervalMs`
 * while the tab is visible, and whenever the tab comes back into view or gets focus. With none,
 * it reads nothing. The outbox writes what changed and announces it, so every tab shows it.
 */
export interface TeamHoldsWatcherDeps {
  outbox: {
    subscribe(listener: () => void): () => void;
    hasHubOwned(scope: string): boolean;
    settleTeamHolds(scope: string, holds: readonly TeamHold[]): Promise<number>;
  };
  /** The scopes of the hub's connections (the signed-in member's decisions). */
  scopes: () => readonly string[];
  /** The member's holds, newest first (a reviewer gets their own). */
  holds: () => Promise<readonly TeamHold[]>;
  intervalMs?: number;
  /** Hub mode's change stream (src/app/live-stream.ts): while it is live the interval reads nothing; a hold's change read at once. */
  live?: { isLive: () => boolean; onChange: (read: () => void) => () => void };
}

/** How often the holds are read while some wait (a reviewer learns of a release within this). */
const HOLDS_INTERVAL_MS = 5_000;

export function watchTeamHolds({ outbox, scopes, holds, intervalMs = HOLDS_INTERVAL_MS, live }: TeamHoldsWatcherDeps): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  let reading: Promise<void> | null = null;
  let again = false;
  const waiting = () => scopes().filter((scope) => outbox.hasHubOwned(scope));
  const visible = () => document.visibilityState === 'visible';

  const read = (): void => {
    if (reading) {
      // A read is under way: one more after it (what changed meanwhile is seen).
      again = true;
      return;
    }
    const now = waiting();
    if (now.length === 0) return;
    reading = (async () => {
      try {
        const list = await holds();
        for (const scope of now) await outbox.settleTeamHolds(scope, list);
      } catch {
        // The hub could not be asked (offline, signed out: the session's own handling says so); the next read tries again.
      } finally {
        reading = null;
        if (again) {
          again = false;
          read();
        }
      }
    })();
  };

  const follow = (): void => {
    const due = waiting().length > 0;
    if (due && timer === null) {
      timer = setInterval(() => visible() && !live?.isLive() && read(), intervalMs);
      read();
    } else if (!due && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
  const shown = () => visible() && timer !== null && read();

  const unsubscribe = outbox.subscribe(follow);
  const unfollowStream = live?.onChange(read);
  window.addEventListener('focus', shown);
  document.addEventListener('visibilitychange', shown);
  follow();
  return () => {
    unsubscribe();
    unfollowStream?.();
    window.removeEventListener('focus', shown);
    document.removeEventListener('visibilitychange', shown);
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
}
