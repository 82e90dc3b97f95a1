import type { HubContext } from '../http/context';
import { vendorKeyFor } from '../store/vendor-keys';
import { scheduledPull } from './team-pull';

/*
 * The team's scheduled pulls: every `tickMs` the hub pulls each team subscription whose
 * `every_minutes` has passed since the team's last pull (a member's counts too). Hubs on one
 * database may all tick: the pull claim (team-pull.ts) lets one pull at a time, and the one that
 * comes second finds `last_pulled_at` fresh and pulls nothing more than what is new.
 */

export const DEFAULT_SCHEDULE_TICK_MS = 15_000;

export interface InboxSchedule {
  stop: () => Promise<void>;
  /** Runs one round now (tests). */
  tick: () => Promise<void>;
}

export function startInboxSchedule(ctx: HubContext, tickMs: number): InboxSchedule {
  let running: Promise<void> | null = null;
  const round = async () => {
    const now = Date.now();
    const due = await ctx.db
      .selectFrom('inbox_pulls')
      .innerJoin('team_subscriptions', 'team_subscriptions.id', 'inbox_pulls.subscription_id')
      .select(['inbox_pulls.subscription_id', 'inbox_pulls.every_minutes', 'inbox_pulls.last_pulled_at', 'team_subscriptions.kind'])
      .where('inbox_pulls.every_minutes', 'is not', null)
      .execute();
    for (const row of due) {
      const last = row.last_pulled_at === null ? null : Number(row.last_pulled_at);
      if (last !== null && last + Number(row.every_minutes) * 60_000 > now) continue;
      const credential = await vendorKeyFor(ctx.db, ctx.cipher, row.subscription_id);
      if (!credential) continue;
      try {
        const kept = await scheduledPull(ctx, row.subscription_id, row.kind, credential);
        if (kept > 0) ctx.log?.(`hub: scheduled pull of ${row.subscription_id}: ${kept} new item(s)`);
      } catch (error) {
        ctx.log?.(`hub: scheduled pull of ${row.subscription_id} failed (${(error as Error).message})`);
      }
    }
  };
  const tick = () => {
    running ??= round()
      .catch((error: unknown) => ctx.log?.(`hub: the pull schedule could not be read (${(error as Error).message})`))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = tickMs > 0 ? setInterval(() => void tick(), tickMs) : null;
  timer?.unref();
  return {
    tick,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
