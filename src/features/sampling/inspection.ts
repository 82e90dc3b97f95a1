import { lotProgress, type Lot } from './lot';
import type { TriageRow } from '../../domain/triage';
import { runSwitching, START, type Machine, type Step, type SwitchingEvent } from './switching';

/**
 * A subscription's inspection state, from its lots kept in the local store: the lots of the
 * standard plan in the order they were made, each counted once its plan has decided it (the
 * decisions are in the outbox and the service), with the approvals and resumptions the user gave
 * when drawing them. Derived each time from what is stored, so every tab, a reload and another
 * key of the organization find the same state and the same history.
 */
export interface InspectionStatus {
  machine: Machine;
  steps: (Step & { lot: Lot })[];
  /** Lots of the standard plan not decided yet: they count once decided. */
  pending: Lot[];
  /** Why the state is what it is, in words. */
  why: string;
}

export function inspectionStatus(lots: readonly Lot[], rowsById: ReadonlyMap<string, TriageRow>, subscriptionId: string): InspectionStatus {
  const ordered = lots.filter((lot) => lot.subscriptionId === subscriptionId && lot.plan.kind === 'standard').sort((a, b) => a.createdAt - b.createdAt);
  const events: { event: SwitchingEvent; lot: Lot }[] = [];
  const pending: Lot[] = [];
  for (const lot of ordered) {
    const plan = lot.plan;
    if (plan.kind !== 'standard') continue;
    if (plan.resumed) events.push({ lot, event: { kind: 'resume', lotId: lot.id } });
    if (plan.approvedReduced) events.push({ lot, event: { kind: 'approve-reduced', lotId: lot.id } });
    const progress = lotProgress(lot, rowsById);
    if (progress.decision === 'pending') {
      pending.push(lot);
      continue;
    }
    events.push({
      lot,
      event: {
        kind: 'lot',
        lotId: lot.id,
        outcome: progress.decision,
        ac: plan.ac,
        acceptedOneStepTighter: plan.tighterAc !== null && progress.defects <= plan.tighterAc,
      },
    });
  }
  const { machine, steps } = runSwitching(events.map((e) => e.event));
  const last = steps.at(-1);
  return {
    machine: steps.length ? machine : START,
    steps: steps.map((step, i) => ({ ...step, lot: events[i]!.lot })),
    pending,
    why: last ? last.why : 'No lot of the standard plan is decided yet: inspection starts normal.',
  };
}

export const STATE_TEXT: Record<Machine['state'], string> = {
  normal: 'Normal inspection',
  tightened: 'Tightened inspection',
  reduced: 'Reduced inspection',
  discontinued: 'Inspection discontinued',
};
