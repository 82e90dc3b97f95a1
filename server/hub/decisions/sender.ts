import type { HubContext } from '../http/context';
import { repeat } from '../repeat';
import { claimDecision, dueDecisions, findDecision, reclaimSending } from '../store/decisions';
import { DEFAULT_RETRY, deliver } from './deliver';

const BATCH = 20;

export interface Sender {
  /** Stops looking for work and waits for the round under way (a send in it finishes or times out). */
  stop: () => Promise<void>;
}

/**
 * The decision queue's background sender, one per hub process: at start, decisions a killed hub
 * left `sending` go back in the queue (the vendor takes a repeated decision as a no-op); then,
 * every pollMs, due queued decisions are claimed one by one (a guarded UPDATE: never two senders
 * on one) and delivered. A claim that ran out (a request that hung) is taken back too.
 */
export async function startSender(ctx: HubContext): Promise<Sender> {
  const policy = ctx.retry ?? DEFAULT_RETRY;
  const reclaimed = await reclaimSending(ctx.db, Date.now(), true);
  if (reclaimed > 0) ctx.log?.(`hub: ${reclaimed} decision(s) left mid-send by the last run are queued again`);
  let stopped = false;
  const once = async () => {
    const now = Date.now();
    await reclaimSending(ctx.db, now, false);
    for (const { id } of await dueDecisions(ctx.db, now, BATCH)) {
      if (stopped) return;
      if (!(await claimDecision(ctx.db, id, Date.now()))) continue;
      const row = await findDecision(ctx.db, id);
      if (row) await deliver(ctx, row);
    }
  };
  const loop = repeat(policy.pollMs, once, { onError: (error) => ctx.log?.(`hub: decision sender: ${error.message}`) });
  return {
    stop: () => {
      // A round under way stops between two sends.
      stopped = true;
      return loop.stop();
    },
  };
}
