import type { Kysely } from 'kysely';
import type { HubTables } from '../db/schema';
import type { HubContext, Principal } from '../http/context';
import { appendAudit } from '../store/audit';
import { lockLedger } from '../store/budgets';
import { findActiveDecision, lockOverlapSettings } from '../store/decisions';
import { lockInboxRows, lockUndecided, putVoteItem, setOverlap } from '../store/votes';
import { teamOutcome, type Rule } from '../overlap/rule';
import { takeTeamDecision, type Taken } from './accept';
import { deliver } from './deliver';
import { choiceFrom } from './votes';

/*
 * An admin changes a subscription's overlap N or rule (PUT /hub/v1/overlap). Items the team has
 * not decided (open, or with the lead) are judged under the new setting at once, in the same
 * transaction: votes already in that now meet the new N and rule make the team's decision (taken
 * as any other: the decision queue, its audit row, the budget check, sent once); a split goes to
 * the lead; too few votes leave it open (raising N asks for more, and takes an item back from the
 * lead for the votes it now lacks). Items already decided or settled keep their decision.
 *
 * Before, an item kept the N of its first vote: after the team shrank below that N (the setting
 * itself cannot pass the members who can vote), lowering N left such items open for good.
 *
 * Locks: the subscriptions' overlap locks first, exclusive (a vote holds its subscription's shared,
 * before its item's), then every undecided item's lock, then the inbox rows of those it decides (a
 * take holds such rows before its audit row), then the ledger if the recount adopts a simulated
 * item, and only then audit rows: the order every decision takes them in.
 */

export interface OverlapChange {
  subscription_id: string;
  overlap: number;
  rule: Rule;
}

/** What the change did to the undecided items of one subscription. */
interface Recounted {
  decided: number;
  lead: number;
  open: number;
}

/** Sets the overlap and recounts the undecided items (call in a transaction); returns the team decisions it took, to send after the commit. */
export async function changeOverlap(
  trx: Kysely<HubTables>,
  ctx: HubContext,
  admin: Principal,
  settings: readonly OverlapChange[],
  now: number,
): Promise<Taken[]> {
  const ids = settings.map((s) => s.subscription_id);
  await lockOverlapSettings(trx, ctx.engine, ids);
  const bySubscription = new Map(settings.map((s) => [s.subscription_id, s]));
  const undecided = (await lockUndecided(trx, ctx.engine, ids)).flatMap(({ item, votes }) => {
    const setting = bySubscription.get(item.subscription_id!)!;
    // The same N and rule judge it as before: nothing changes.
    if (item.needed === setting.overlap && item.rule === setting.rule) return [];
    const outcome = teamOutcome(
      votes.map((v) => v.vote),
      setting.overlap,
      setting.rule,
    );
    return [{ item, votes, setting, outcome }];
  });
  // The inbox rows of the items it decides, before any audit row: a take holds rows, then the audit head (lockInboxRows).
  await lockInboxRows(
    trx,
    ctx.engine,
    undecided.filter((u) => u.outcome === 'adopt' || u.outcome === 'dispute').map((u) => ({ family: u.item.family, item_id: u.item.item_id })),
  );
  // A simulated adopt is charged: its budget check needs the ledger, taken before any audit row (lock order).
  if (undecided.some((u) => u.item.family === 'data' && u.outcome === 'adopt')) await lockLedger(trx, ctx.engine);

  const taken: Taken[] = [];
  const counts = new Map<string, Recounted>(ids.map((id) => [id, { decided: 0, lead: 0, open: 0 }]));
  for (const { item, votes, setting, outcome } of undecided) {
    // Decided meanwhile by another path (none should: every one takes the item's lock): left as it stands.
    if (await findActiveDecision(trx, item.family, item.item_id)) continue;
    const decides = outcome === 'adopt' || outcome === 'dispute';
    const state = decides ? 'decided' : outcome === 'lead' ? 'lead' : 'open';
    await putVoteItem(trx, {
      ...item,
      needed: setting.overlap,
      rule: setting.rule,
      state,
      outcome: decides ? outcome : null,
      updated_at: now,
    });
    counts.get(setting.subscription_id)![state]++;
    await appendAudit(
      trx,
      {
        actorId: admin.member.id,
        via: admin.via,
        action: 'vote.recount',
        target: `/${item.family}/items/${item.item_id}`,
        subscriptionId: item.subscription_id,
        itemId: item.item_id,
        outcome: outcome ?? 'voted',
        details: { votes: votes.length, needed: setting.overlap, rule: setting.rule, was_needed: item.needed, was_rule: item.rule, was_state: item.state },
      },
      now,
    );
    if (!decides) continue;
    // The team's decision is the votes', as when the last vote makes it: charged to the member who voted last.
    const last = votes.reduce((a, b) => (b.at > a.at ? b : a));
    const choice = choiceFrom(votes, outcome, last.member_id);
    taken.push(await takeTeamDecision(trx, ctx, admin, { family: item.family, itemId: item.item_id, subscriptionId: item.subscription_id }, choice));
  }
  for (const s of settings) {
    await setOverlap(trx, { ...s, updated_at: now, updated_by: admin.member.id });
    await appendAudit(
      trx,
      {
        actorId: admin.member.id,
        via: admin.via,
        action: 'overlap.set',
        target: s.subscription_id,
        subscriptionId: s.subscription_id,
        outcome: 'ok',
        details: { overlap: s.overlap, rule: s.rule, ...counts.get(s.subscription_id)! },
      },
      now,
    );
  }
  return taken;
}

/** How many of the recount's decisions are sent at once: a few, so a long list neither waits in line nor floods the vendor. */
const SENDING_AT_ONCE = 4;

/** After the commit: each accepted decision sent now (the queue retries one the vendor cannot take yet); a held one waits for an admin. */
export async function sendRecounted(ctx: HubContext, taken: readonly Taken[]): Promise<void> {
  const rows = taken.flatMap((t) => (t.kind === 'accepted' ? [t.row] : []));
  for (let i = 0; i < rows.length; i += SENDING_AT_ONCE) await Promise.all(rows.slice(i, i + SENDING_AT_ONCE).map((row) => deliver(ctx, row)));
}
