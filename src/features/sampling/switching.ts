/**
 * The switching rules across a subscription's successive lots, as a pure state machine written as
 * a transition table. Sources: MIL-STD-105E §8.3 and ISO 2859-1:1999 §9.3–9.4; where they differ:
 * - normal → reduced: ISO's switching score (§9.3.3.2, single sampling), not 105E's limit numbers:
 *   from 0 at the start of normal inspection, after each lot on normal inspection, if Ac ≥ 2 add 3
 *   when the lot would also have been accepted at the AQL one step tighter, else reset to 0; if
 *   Ac is 0 or 1 add 2 when the lot is accepted, else reset to 0. At 30 or more, reduced inspection
 *   may start, provided production is steady and the responsible authority approves: the user
 *   says so when drawing the next lot (the "approve" event).
 * - reduced → normal: a lot not accepted; or (105E §8.3.3(b)) a lot accepted with a defect count
 *   between Ac and Re of the reduced plan. ("Production irregular" and "other conditions" are the
 *   user's call: they draw the next lot under normal inspection by not approving reduced again.)
 * - discontinuation: ISO §9.4 (and Z1.4-2003): when 5 lots accumulated while on tightened
 *   inspection are not accepted, inspection under the standard stops until the supplier has acted
 *   ("resume", which restarts on tightened). 105E §8.4 counted 10 consecutive lots on tightened.
 * Lots count in the order they were made, once decided; lots of the zero-acceptance plan do not count.
 */
type InspectionState = 'normal' | 'tightened' | 'reduced' | 'discontinued';

interface Counters {
  /** Outcomes of the latest lots on normal inspection, newest last (at most 5): true = not accepted. */
  recentNormal: boolean[];
  /** The switching score (normal inspection). */
  score: number;
  /** Consecutive lots accepted on tightened inspection. */
  tightenedAccepted: number;
  /** Lots not accepted since tightened inspection began. */
  tightenedRejected: number;
}

export interface Machine extends Counters {
  state: InspectionState;
}

export type SwitchingEvent =
  | {
      kind: 'lot';
      lotId: string;
      /** accepted-return: accepted on reduced inspection with Ac < d < Re (105E). */
      outcome: 'accepted' | 'rejected' | 'accepted-return';
      /** The plan's acceptance number, and whether the defects found are within the plan one AQL step tighter. */
      ac: number;
      acceptedOneStepTighter: boolean;
    }
  | { kind: 'approve-reduced'; lotId: string }
  | { kind: 'resume'; lotId: string };

export const START: Machine = { state: 'normal', recentNormal: [], score: 0, tightenedAccepted: 0, tightenedRejected: 0 };
export const REDUCED_SCORE = 30;

const fresh = (state: InspectionState): Machine => ({ ...START, state });

type LotEvent = Extract<SwitchingEvent, { kind: 'lot' }>;
interface Rule {
  from: InspectionState;
  on: SwitchingEvent['kind'];
  /** When the rule applies (the first matching rule of the table wins). */
  when: (m: Machine, e: SwitchingEvent) => boolean;
  next: (m: Machine, e: SwitchingEvent) => Machine;
  why: (m: Machine, e: SwitchingEvent, next: Machine) => string;
}

const rejected = (e: SwitchingEvent) => e.kind === 'lot' && e.outcome === 'rejected';
function normalAfter(m: Machine, e: LotEvent): Machine {
  const recentNormal = [...m.recentNormal, e.outcome === 'rejected'].slice(-5);
  const accepted = e.outcome !== 'rejected';
  const score = !accepted ? 0 : e.ac >= 2 ? (e.acceptedOneStepTighter ? m.score + 3 : 0) : m.score + 2;
  return { ...m, recentNormal, score };
}
const rejectionsInWindow = (m: Machine) => m.recentNormal.filter(Boolean).length;

/** The transition table. Each row: in state `from`, on event `on`, when `when` holds → `next`, with the reason in words. */
const TRANSITIONS: readonly Rule[] = [
  {
    from: 'normal',
    on: 'lot',
    when: (m, e) => rejected(e) && rejectionsInWindow(normalAfter(m, e as LotEvent)) >= 2,
    next: () => fresh('tightened'),
    why: () => '2 of the last 5 lots or fewer on normal inspection were not accepted: tightened inspection.',
  },
  {
    from: 'normal',
    on: 'lot',
    when: () => true,
    next: (m, e) => normalAfter(m, e as LotEvent),
    why: (_m, e, n) =>
      `${(e as LotEvent).outcome === 'rejected' ? 'Lot not accepted' : 'Lot accepted'} on normal inspection; ${rejectionsInWindow(n)} of the last ${n.recentNormal.length} not accepted; switching score ${n.score}` +
      (n.score >= REDUCED_SCORE
        ? ` (≥ ${REDUCED_SCORE}: reduced inspection may be used if production is steady and the responsible authority approves).`
        : '.'),
  },
  {
    from: 'normal',
    on: 'approve-reduced',
    when: (m) => m.score >= REDUCED_SCORE,
    next: () => fresh('reduced'),
    why: (m) => `Switching score ${m.score} ≥ ${REDUCED_SCORE}, production steady and reduced inspection approved: reduced inspection.`,
  },
  {
    from: 'tightened',
    on: 'lot',
    when: (m, e) => rejected(e) && m.tightenedRejected + 1 >= 5,
    next: () => fresh('discontinued'),
    why: () => '5 lots not accepted while on tightened inspection: inspection under the standard is discontinued until the supplier has acted.',
  },
  {
    from: 'tightened',
    on: 'lot',
    when: (_m, e) => rejected(e),
    next: (m) => ({ ...m, tightenedAccepted: 0, tightenedRejected: m.tightenedRejected + 1 }),
    why: (_m, _e, n) => `Lot not accepted on tightened inspection (${n.tightenedRejected} of 5 that discontinue inspection).`,
  },
  {
    from: 'tightened',
    on: 'lot',
    when: (m) => m.tightenedAccepted + 1 >= 5,
    next: () => fresh('normal'),
    why: () => '5 consecutive lots accepted on tightened inspection: back to normal inspection.',
  },
  {
    from: 'tightened',
    on: 'lot',
    when: () => true,
    next: (m) => ({ ...m, tightenedAccepted: m.tightenedAccepted + 1 }),
    why: (_m, _e, n) => `Lot accepted on tightened inspection (${n.tightenedAccepted} of 5 consecutive that return to normal).`,
  },
  {
    from: 'reduced',
    on: 'lot',
    when: (_m, e) => rejected(e),
    next: () => fresh('normal'),
    why: () => 'A lot was not accepted on reduced inspection: back to normal inspection.',
  },
  {
    from: 'reduced',
    on: 'lot',
    when: (_m, e) => e.kind === 'lot' && e.outcome === 'accepted-return',
    next: () => fresh('normal'),
    why: () => 'The lot was accepted, but with more defects than the reduced plan accepts outright (between Ac and Re): back to normal inspection.',
  },
  {
    from: 'reduced',
    on: 'lot',
    when: () => true,
    next: (m) => m,
    why: () => 'Lot accepted on reduced inspection: reduced inspection continues.',
  },
  {
    from: 'discontinued',
    on: 'resume',
    when: () => true,
    next: () => fresh('tightened'),
    why: () => 'The supplier has acted on the quality: inspection resumes on tightened inspection.',
  },
];

export interface Step {
  event: SwitchingEvent;
  from: InspectionState;
  to: InspectionState;
  machine: Machine;
  why: string;
}

/** One event: the first rule of the table that matches; an event no rule takes changes nothing (and says so). */
export function transition(m: Machine, event: SwitchingEvent): Step {
  const rule = TRANSITIONS.find((r) => r.from === m.state && r.on === event.kind && r.when(m, event));
  if (!rule)
    return { event, from: m.state, to: m.state, machine: m, why: `No switching rule applies to "${event.kind}" on ${m.state} inspection; nothing changes.` };
  const next = rule.next(m, event);
  return { event, from: m.state, to: next.state, machine: next, why: rule.why(m, event, next) };
}

/** The whole history from the start (normal inspection). */
export function runSwitching(events: readonly SwitchingEvent[]): { machine: Machine; steps: Step[] } {
  let machine = START;
  const steps: Step[] = [];
  for (const event of events) {
    const step = transition(machine, event);
    steps.push(step);
    machine = step.machine;
  }
  return { machine, steps };
}
