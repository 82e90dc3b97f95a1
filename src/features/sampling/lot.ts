import { lotValueSchema, type LotAction, type LotValue, type SampleDecision } from '../../api/contract/hub-lots';
import type { StoredLot } from '../../domain/store';
import type { TriageRow } from '../../domain/triage';
import { lotDecision, type DecisionOutcome } from './decision';
import { wilsonInterval, type Interval } from './wilson';

/** The lot's value is the contract's (src/api/contract/hub-lots.ts), shared with the team hub, which checks it too. */
export { lotValueSchema };
export type { LotAction, LotPlan, LotSource, LotValue, StandardLotPlan } from '../../api/contract/hub-lots';

export interface Lot extends LotValue {
  id: string;
  subscriptionId: string;
  createdAt: number;
  /** On a team hub: who drew it (their email; null once they are removed), and the revision read. */
  createdBy?: string | null;
  revision?: number;
  /** On a team hub: the team's accepted decisions on the sampled items (another member's are not in this browser). */
  teamDecisions?: ReadonlyMap<string, SampleDecision>;
}

/** A stored row as a lot, or null when its value is damaged (or of a later version). */
export function lotOf(row: StoredLot): Lot | null {
  const parsed = lotValueSchema.safeParse(row.value);
  return parsed.success ? { ...parsed.data, id: row.id, subscriptionId: row.subscriptionId, createdAt: row.createdAt } : null;
}

export function newLotId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `lot_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** good = adopted, defect = disputed; a decision still on its way counts as what was decided. */
export function sampleVerdict(row: TriageRow | undefined): 'good' | 'defect' | null {
  if (!row) return null;
  if (row.state === 'adopted') return 'good';
  if (row.state === 'disputed') return 'defect';
  if (row.state === 'waiting' && row.entry) return row.entry.decision === 'adopt' ? 'good' : 'defect';
  return null;
}

export interface LotProgress extends DecisionOutcome {
  reviewed: number;
  defects: number;
  /** defects / reviewed; null before any item is reviewed. */
  defectRate: number | null;
  /** The 95 % Wilson interval of the defect rate (information; the plan's rule decides). */
  interval: Interval | null;
  sampleSize: number;
  /** The sampled items the store no longer holds (deleted local data). */
  missing: number;
  /** Reviewed sampled items whose decision is not confirmed by the service yet (on its way, or waiting for "Send and pay"). */
  unsent: number;
  /** The lot's items outside the sample, as the store holds them now. */
  rest: TriageRow[];
}

/** A sampled item's verdict: this browser's decision first, else the team's on the hub (another member's). */
export function lotItemVerdict(lot: Lot, id: string, row: TriageRow | undefined): 'good' | 'defect' | null {
  const own = sampleVerdict(row);
  if (own) return own;
  const team = lot.teamDecisions?.get(id);
  return team ? (team.decision === 'adopt' ? 'good' : 'defect') : null;
}

/** Where a lot stands now, from the triage rows of its subscription (and on a team hub, the team's decisions). */
export function lotProgress(lot: Lot, rowsById: ReadonlyMap<string, TriageRow>): LotProgress {
  let reviewed = 0;
  let defects = 0;
  let missing = 0;
  let unsent = 0;
  for (const id of lot.sampleIds) {
    const row = rowsById.get(id);
    const verdict = lotItemVerdict(lot, id, row);
    if (!row && !verdict) missing++;
    if (verdict) reviewed++;
    if (verdict && row?.state === 'waiting') unsent++;
    if (verdict === 'defect') defects++;
  }
  const sampled = new Set(lot.sampleIds);
  const rest: TriageRow[] = [];
  for (const id of lot.itemIds) {
    const row = sampled.has(id) ? undefined : rowsById.get(id);
    if (row) rest.push(row);
  }
  return {
    ...lotDecision(lot.plan, lot.sampleIds.length, reviewed, defects, missing),
    reviewed,
    defects,
    defectRate: reviewed > 0 ? defects / reviewed : null,
    interval: reviewed > 0 ? wilsonInterval(defects, reviewed) : null,
    sampleSize: lot.sampleIds.length,
    missing,
    unsent,
    rest,
  };
}

export function snapshotOf(progress: LotProgress): LotAction['outcome'] {
  return {
    reviewed: progress.reviewed,
    defects: progress.defects,
    lower: progress.interval?.lower ?? null,
    upper: progress.interval?.upper ?? null,
    recommendation: progress.recommendation,
    decision: progress.decision,
  };
}
