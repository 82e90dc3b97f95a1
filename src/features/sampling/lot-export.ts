import type { TriageRow } from '../triage';
import { lotProgress, sampleVerdict, type Lot } from './lot';

/**
 * A lot as one JSON document: the plan with its formula, the sample in draw order with each
 * item's decision, the outcome now, and what the user did with the rest.
 */
export function lotDocument(lot: Lot, rowsById: ReadonlyMap<string, TriageRow>, now = new Date()) {
  const progress = lotProgress(lot, rowsById);
  return {
    lot: {
      id: lot.id,
      subscription_id: lot.subscriptionId,
      kind: lot.kind,
      created_at: new Date(lot.createdAt).toISOString(),
      exported_at: now.toISOString(),
      source: lot.source,
      item_ids: lot.itemIds,
    },
    plan: {
      lot_size: lot.plan.lotSize,
      confidence: lot.plan.confidencePct / 100,
      tolerated_defect_rate: lot.plan.defectRateBp / 10_000,
      assumed_defects: lot.plan.assumedDefects,
      sample_size: lot.plan.sampleSize,
      binomial_sample_size: lot.plan.binomialSize,
      formula: lot.plan.formula,
      extensions: lot.extensions.map((e) => ({ at: new Date(e.at).toISOString(), added: e.added })),
    },
    sample: lot.sampleIds.map((id) => {
      const row = rowsById.get(id);
      const verdict = sampleVerdict(row);
      return {
        item_id: id,
        state: row?.state ?? 'not kept',
        decision: verdict === 'good' ? 'adopt' : verdict === 'defect' ? 'dispute' : null,
        decided_at: row?.decidedAt ? new Date(row.decidedAt).toISOString() : null,
      };
    }),
    outcome: {
      reviewed: progress.reviewed,
      defects: progress.defects,
      defect_rate: progress.defectRate,
      wilson_95: progress.interval,
      recommendation: progress.recommendation,
    },
    action: lot.action && {
      decision: lot.action.decision,
      at: new Date(lot.action.at).toISOString(),
      recorded: lot.action.recorded,
      total_micros_usd: lot.action.totalMicros,
      outcome_then: lot.action.outcome,
    },
  };
}
