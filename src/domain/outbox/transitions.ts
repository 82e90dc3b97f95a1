/**
 * Every state a decision can be in, what each means to the rest of the console, and every change
 * from one to another. Every state change of an outbox entry goes through `move`: a change the
 * table does not list is a bug, thrown in tests and, in production, logged and refused (the entry
 * keeps its state). A new state is one row of STATES (its traits and its label) and its rows in
 * TRANSITIONS; readers ask the traits (`isUnsent`, `phaseOf`, …), never compare state strings.
 */

/** How a reader (lists, progress, statistics) groups a state. */
export type Phase = 'window' | 'queued' | 'sending' | 'confirmed' | 'conflict' | 'failed' | 'expired' | 'discarded' | 'held';

interface Traits {
  /** In words, as a list names it. */
  label: string;
  phase: Phase;
  /** Not sent yet and still meant to be (the leave guard counts it; a decision on the item stands). */
  unsent?: true;
  /** Needs the user (Retry or discard). */
  problem?: true;
  /** Nothing changes it any more: the record of what was decided, or dropped. */
  final?: true;
  /** Pause holds it back (not yet on its way). */
  holdable?: true;
  /** Cancel of a bulk run discards it (not sent and not on its way). */
  cancellable?: true;
  /** The user may discard it whatever else holds. */
  discardable?: true;
  /** Cleared by the budget gate, it counts as spend (on its way, waiting for confirmation, or confirmed). */
  spends?: true;
  /** On its way to the service in this visit: in its undo window, queued or on the wire. */
  onItsWay?: true;
  /** A team hub has it (held, or accepted to send): this browser never sends it; only the hub's holds move it. */
  hub?: true;
  /** A decision on the item stands though this browser sends nothing more (the hub sends it). */
  stands?: true;
  /** A teammate's decision on the team hub, not this browser's (its `decidedBy` names them). */
  teammates?: true;
}

const STATES = {
  grace: { label: 'in its undo window', phase: 'window', unsent: true, holdable: true, cancellable: true, spends: true, onItsWay: true },
  queued: { label: 'waiting to send', phase: 'queued', unsent: true, holdable: true, cancellable: true, spends: true, onItsWay: true },
  sending: { label: 'sending', phase: 'sending', unsent: true, spends: true, onItsWay: true },
  sent: { label: 'confirmed', phase: 'confirmed', final: true, spends: true, stands: true },
  failed: { label: 'failed', phase: 'failed', problem: true, cancellable: true, discardable: true },
  conflict: { label: 'the service holds another decision', phase: 'conflict', problem: true, discardable: true },
  'needs-confirmation': {
    label: 'waiting for your confirmation',
    phase: 'queued',
    unsent: true,
    holdable: true,
    cancellable: true,
    discardable: true,
    spends: true,
  },
  expired: { label: 'expired', phase: 'expired', cancellable: true, discardable: true },
  discarded: { label: 'discarded', phase: 'discarded', final: true },
  'held-budget': { label: 'held by a budget', phase: 'held', unsent: true, cancellable: true, discardable: true },
  /**
   * Through a team hub: the hub kept the adopt (409 BUDGET_HELD) under the team's budget. The hub
   * holds it now, so this browser never sends it again; an admin releases it on the hub.
   */
  'held-team': { label: 'held by the team’s budget', phase: 'held', discardable: true, hub: true },
  /**
   * Through a team hub: an admin released the held adopt and the hub accepted it, but has not
   * delivered it yet (the vendor was away). The hub sends it; this browser never does.
   */
  'accepted-team': { label: 'accepted by the hub, waiting to send', phase: 'queued', hub: true, stands: true },
  /** Through a team hub: the held adopt was dropped there (never sent); the item is undecided again. */
  'dropped-team': { label: 'dropped on the hub', phase: 'discarded', final: true },
  /**
   * Through a team hub: a teammate's decision (the hub's feed of the team's decisions), recorded
   * here so the item reads decided. Never sent from this browser and not its spend; it stands, so
   * this browser's own decision on the item is skipped as a repeat. Undecided again on the hub,
   * the entry is removed (team-decisions.ts).
   */
  'decided-team': { label: 'decided by a teammate', phase: 'confirmed', final: true, stands: true, teammates: true },
} as const satisfies Record<string, Traits>;

export type EntryState = keyof typeof STATES;
export const ENTRY_STATES = Object.keys(STATES) as [EntryState, ...EntryState[]];

const traits = (state: EntryState): Traits => STATES[state];
export const stateLabel = (state: EntryState): string => traits(state).label;
export const phaseOf = (state: EntryState): Phase => traits(state).phase;
export const isUnsent = (state: EntryState): boolean => traits(state).unsent === true;
export const isProblem = (state: EntryState): boolean => traits(state).problem === true;
export const isFinal = (state: EntryState): boolean => traits(state).final === true;
const isHoldable = (state: EntryState): boolean => traits(state).holdable === true;
const isCancellable = (state: EntryState): boolean => traits(state).cancellable === true;
export const isDiscardableState = (state: EntryState): boolean => traits(state).discardable === true;
export const isSpending = (state: EntryState): boolean => traits(state).spends === true;
export const isOnItsWay = (state: EntryState): boolean => traits(state).onItsWay === true;
/** The team hub has it: only its holds (`GET /hub/v1/holds`) move it, never this browser's sending. */
export const isHubOwned = (state: EntryState): boolean => traits(state).hub === true;
/** A teammate's decision (through a team hub), shown here but never this browser's to send or count as its spend. */
export const isTeammates = (state: EntryState): boolean => traits(state).teammates === true;
/** A decision on the item stands: on its way from here, accepted by a hub, or confirmed. */
export const standsOnItem = (state: EntryState): boolean => isUnsent(state) || traits(state).stands === true;

const statesWhere = (has: (state: EntryState) => boolean): ReadonlySet<EntryState> => new Set(ENTRY_STATES.filter(has));
export const PROBLEM_STATES = statesWhere(isProblem);
export const FINAL_STATES = statesWhere(isFinal);
export const HOLDABLE_STATES = statesWhere(isHoldable);
export const CANCELLABLE_STATES = statesWhere(isCancellable);

/** What happens to a decision. */
export type EntryEvent =
  /** Its undo window ended. */
  | 'window-ended'
  /** Its request leaves. */
  | 'send'
  /** Its in-flight mark could not be written: it was not sent, and waits as it was. */
  | 'not-sent'
  | 'confirmed'
  /** 409: the service holds another decision. */
  | 'conflict'
  /** 409 BUDGET_HELD: a team hub kept the adopt under the team's budget. */
  | 'team-held'
  /** A team hub's hold was resolved: released and delivered, released and queued on the hub, dropped, or released and refused by the vendor. */
  | 'hub-sent'
  | 'hub-accepted'
  | 'hub-dropped'
  | 'hub-refused'
  /** The hub's feed says a teammate's decision on the item changed (another kind, another member, another hub state). */
  | 'team-decided'
  /** A failure retried later, or a refusal (401, 403) it waits out uncounted. */
  | 'retry-later'
  | 'gave-up'
  /** The user's Retry of a failed decision. */
  | 'retry'
  /** The user confirmed a charged decision found after a reload. */
  | 'confirm'
  /** The user sent decisions a budget held, past their limit. */
  | 'release'
  /** Send everything now (Remove connection). */
  | 'send-now'
  | 'discard'
  /** The budget gate let a charged decision through, or held it. */
  | 'gate-cleared'
  | 'gate-held'
  /** A tab took it over (a reload, a closed tab), or its in-flight mark passed without an answer. */
  | 'take-over'
  | 'answer-lost';

type Table = Readonly<Record<EntryEvent, Partial<Record<EntryState, readonly EntryState[]>>>>;

/** Resumed as after a reload: sent at once, left on the wire until its mark passed, confirmed by the user first (charged), or expired. */
const RESUMED: readonly EntryState[] = ['queued', 'sending', 'needs-confirmation', 'expired'];

/** from × event → the states it may become. */
export const TRANSITIONS: Table = {
  'window-ended': { grace: ['queued'] },
  send: { queued: ['sending'] },
  'not-sent': { sending: ['queued'] },
  confirmed: { sending: ['sent'] },
  conflict: { sending: ['conflict'] },
  'team-held': { sending: ['held-team'] },
  'hub-sent': { 'held-team': ['sent'], 'accepted-team': ['sent'] },
  'hub-accepted': { 'held-team': ['accepted-team'] },
  'hub-dropped': { 'held-team': ['dropped-team'] },
  'hub-refused': { 'held-team': ['failed'], 'accepted-team': ['failed'] },
  'team-decided': { 'decided-team': ['decided-team'] },
  'retry-later': { sending: ['queued'] },
  'gave-up': { sending: ['failed'] },
  // A conflict too: a team hub's 409 ITEM_LEASED (the item leased to another reviewer now) may be sent again once they let it go.
  retry: { failed: ['queued'], conflict: ['queued'] },
  confirm: { 'needs-confirmation': ['queued'] },
  release: { 'held-budget': ['queued'] },
  'send-now': { grace: ['queued'], queued: ['queued'], 'needs-confirmation': ['queued'] },
  discard: {
    grace: ['discarded'],
    queued: ['discarded'],
    failed: ['discarded'],
    conflict: ['discarded'],
    'needs-confirmation': ['discarded'],
    expired: ['discarded'],
    'held-budget': ['discarded'],
    'held-team': ['discarded'],
  },
  'gate-cleared': { grace: ['grace'], queued: ['queued'], 'held-budget': ['queued'] },
  'gate-held': { grace: ['held-budget'], queued: ['held-budget'], 'held-budget': ['held-budget'] },
  'take-over': {
    grace: RESUMED,
    queued: RESUMED,
    sending: RESUMED,
    'needs-confirmation': ['needs-confirmation', 'expired'],
    'held-budget': ['held-budget', 'expired'],
    failed: ['failed'],
    conflict: ['conflict'],
    'held-team': ['held-team'],
    'accepted-team': ['accepted-team'],
    expired: ['expired'],
  },
  'answer-lost': { sending: ['queued', 'needs-confirmation', 'expired'] },
};

export const canMove = (from: EntryState, event: EntryEvent, to: EntryState): boolean => TRANSITIONS[event][from]?.includes(to) === true;

export class IllegalTransition extends Error {
  constructor(
    readonly from: EntryState,
    readonly event: EntryEvent,
    readonly to: EntryState,
  ) {
    super(`a decision cannot go from '${from}' to '${to}' on '${event}'`);
    this.name = 'IllegalTransition';
  }
}

/** Tests fail on an illegal change; a page logs it and keeps the entry as it was (a decision is never lost to a bug here). */
const strict = (): boolean => import.meta.env?.MODE === 'test';

/**
 * The entry in state `to` (with `fields` changed) after `event`; the entry itself, unchanged, when
 * the table does not allow it (thrown in tests). `fields` carries what the change sets besides the
 * state (times, attempts, the error text); fields to drop are dropped by the caller first.
 */
export function move<E extends { id: string; state: EntryState }>(entry: E, event: EntryEvent, to: EntryState, fields?: Partial<Omit<E, 'state'>>): E {
  if (!canMove(entry.state, event, to)) {
    const error = new IllegalTransition(entry.state, event, to);
    if (strict()) throw error;
    console.error(`outbox: ${error.message} (decision ${entry.id}); refused`);
    return entry;
  }
  return { ...entry, ...fields, state: to };
}
