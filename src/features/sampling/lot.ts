import { z } from '../../api/contract/zod';
import type { StoredLot } from '../../domain/store';
import type { TriageRow } from '../../domain/triage';
import { AQLS, LEVELS } from './aql-tables';
import { lotDecision, type DecisionOutcome } from './decision';
import { wilsonInterval, type Interval } from './wilson';

/**
 * A lot as kept in the local store's `lots` table (`value`): where it came from, the item IDs it
 * held when it was made, the plan, the sample drawn once (extensions appended, each a uniform draw
 * from the items not yet sampled, so the whole stays a uniform sample), and what the user did
 * with the rest. Decisions themselves live in the outbox and the service; the outcome is
 * computed from them, and frozen into `action` when the user accepts or disputes the rest.
 */
const zeroPlanSchema = z.object({
  kind: z.literal('zero-acceptance').optional(),
  lotSize: z.number().int().positive(),
  confidencePct: z.number().int().min(1).max(99),
  defectRateBp: z.number().int().min(1).max(9999),
  sampleSize: z.number().int().nonnegative(),
  assumedDefects: z.number().int().nonnegative(),
  binomialSize: z.number().int().nonnegative(),
  formula: z.string(),
});

/** A plan of the standard's master tables (aql-tables.ts), with the switching state it was drawn under. */
const standardPlanSchema = z.object({
  kind: z.literal('standard'),
  lotSize: z.number().int().positive(),
  level: z.enum(LEVELS),
  aql: z.enum(AQLS),
  severity: z.enum(['normal', 'tightened', 'reduced']),
  codeLetter: z.string(),
  planLetter: z.string(),
  arrow: z.enum(['v', '^']).nullable(),
  /** The table's sample size; the lot's sample is the smaller of it and the lot (all of a small lot). */
  tableSampleSize: z.number().int().positive(),
  sampleSize: z.number().int().positive(),
  ac: z.number().int().nonnegative(),
  re: z.number().int().positive(),
  /** Ac of the plan one AQL step tighter for the same code letter (the switching score); null at the first column. */
  tighterAc: z.number().int().nonnegative().nullable(),
  /** Why the switching rules gave this severity when the lot was drawn. */
  switchingWhy: z.string(),
  /** The user said the supplier had acted (resuming after discontinuation). */
  resumed: z.boolean(),
  /** The user approved reduced inspection (production steady, the authority agrees). */
  approvedReduced: z.boolean(),
});

const planSchema = z.union([standardPlanSchema, zeroPlanSchema]);
export type LotPlan = z.infer<typeof planSchema>;
export type StandardLotPlan = z.infer<typeof standardPlanSchema>;

const sourceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('filter'),
    /** The items view's filters as they were in the URL (undecided added). */
    filters: z.record(z.string(), z.union([z.string(), z.number()])),
    description: z.string(),
  }),
  z.object({ kind: z.literal('delivery'), deliveryId: z.string(), description: z.string() }),
]);

const snapshotSchema = z.object({
  reviewed: z.number().int().nonnegative(),
  defects: z.number().int().nonnegative(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  recommendation: z.enum(['accept', 'dispute', 'review-sample', 'review-more']),
  decision: z.enum(['accepted', 'rejected', 'accepted-return', 'pending']).optional(),
});

const actionSchema = z.object({
  decision: z.enum(['adopt', 'dispute']),
  at: z.number(),
  /** How many of the rest were recorded. */
  recorded: z.number().int().nonnegative(),
  /** The exact charge the confirmation named (simulated adopts), in micro-USD. */
  totalMicros: z.number().int().nullable(),
  /** The sample's outcome when the user acted. */
  outcome: snapshotSchema,
});

export const lotValueSchema = z.object({
  version: z.literal(1),
  kind: z.enum(['live', 'simulated']),
  source: sourceSchema,
  itemIds: z.array(z.string()),
  plan: planSchema,
  sampleIds: z.array(z.string()),
  extensions: z.array(z.object({ at: z.number(), added: z.number().int() })),
  action: actionSchema.nullable(),
});

export type LotValue = z.infer<typeof lotValueSchema>;
export type LotAction = z.infer<typeof actionSchema>;
export type LotSource = z.infer<typeof sourceSchema>;
export interface Lot extends LotValue {
  id: string;
  subscriptionId: string;
  createdAt: number;
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

/** Where a lot stands now, from the triage rows of its subscription. */
export function lotProgress(lot: Lot, rowsById: ReadonlyMap<string, TriageRow>): LotProgress {
  let reviewed = 0;
  let defects = 0;
  let missing = 0;
  let unsent = 0;
  for (const id of lot.sampleIds) {
    const row = rowsById.get(id);
    if (!row) missing++;
    const verdict = sampleVerdict(row);
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
