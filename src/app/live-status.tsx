import { skipToken, useQuery } from '@tanstack/react-query';
import type { HubChangeEvent } from '../api/contract/hub-events';
import { HUB_LIVE_KEY, type HubLive } from '../data';

const STATES: Record<HubLive['state'], { label: string; dot: string; title: string }> = {
  live: { label: 'Live', dot: 'bg-emerald-500', title: 'Colleagues’ changes show here as they happen' },
  connecting: { label: 'Reconnecting…', dot: 'bg-amber-500', title: 'Reconnecting to the team hub; changes are read every few seconds meanwhile' },
  polling: { label: 'Polling', dot: 'bg-slate-400', title: 'The hub’s live updates cannot be reached: changes are read every few seconds' },
};

const VERBS: Record<string, string> = {
  'v1.adopt': 'adopted',
  'v1.dispute': 'disputed',
  'v1.pull': 'pulled new items',
  'decision.send': 'sent to the vendor:',
  'lot.create': 'drew lot',
  'lot.update': 'updated lot',
  'hold.release': 'released the hold on',
  'hold.drop': 'dropped the hold on',
  'budget.set': 'changed the budgets',
  'settings.update': 'changed the settings',
  'vote.adopt': 'voted adopt on',
  'vote.dispute': 'voted dispute on',
  'vote.recount': 'counted the votes again on',
  'lease.take': 'took a batch',
  'lease.release': 'released a batch',
  'lease.expire': 'let a batch expire',
  'lease.revoke': 'took a batch back',
  'lease.settings': 'changed the idle time',
  'inbox.schedule': 'changed the pull schedule',
  'overlap.set': 'changed the overlap',
  'subscriptions.set': 'changed the team’s subscriptions',
  'member.add': 'added a member',
  'member.remove': 'removed a member',
  'member.role': 'changed a member’s role',
  'token.create': 'created an access token',
  'token.revoke': 'revoked an access token',
  'vendor_key.add': 'added a vendor key',
  'vendor_key.remove': 'removed a vendor key',
  'vendor_key.rotate': 'rotated a vendor key',
  'session.sign_in': 'signed in',
  'session.sign_out': 'signed out',
  'session.sign_out_all': 'signed out everywhere',
};

/** Actions whose target is a record of the hub (a batch, a member, a key), not something a person reads. */
const NO_TARGET = /^(lease|member|token|vendor_key|session|overlap|subscriptions|inbox|budget|settings)\./;

/** "reviewer1@demo.hub adopted item_12": who, what, on which item or lot. Plain text (the item ID is the vendor's). */
function describeChange(event: HubChangeEvent): string {
  const who = event.actor?.email ?? 'The hub';
  const what = VERBS[event.action] ?? event.action;
  const on = event.item_id ?? (NO_TARGET.test(event.action) ? '' : (event.target ?? ''));
  return `${who} ${what}${on ? ` ${on}` : ''}`;
}

/**
 * Hub mode, in the header: whether the team's changes arrive live (the change stream) or by
 * polling, and the newest one. Announced politely to screen readers; the text gives way at 390 px.
 */
export default function LiveStatus() {
  const live = useQuery<HubLive>({ queryKey: HUB_LIVE_KEY, queryFn: skipToken }).data;
  if (!live) return null;
  const state = STATES[live.state];
  const last = live.last ? describeChange(live.last) : null;
  return (
    <p role="status" aria-label="Team activity" className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300" title={state.title}>
      <span aria-hidden="true" className={`inline-block size-2 shrink-0 rounded-full ${state.dot}`} />
      <span className="shrink-0">{state.label}</span>
      {last && (
        <span className="truncate max-sm:sr-only" title={last}>
          · {last}
        </span>
      )}
    </p>
  );
}
