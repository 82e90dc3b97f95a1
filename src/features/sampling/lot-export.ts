import type { TriageRow } from '../../domain/triage';
import { lotItemVerdict, lotProgress, sampleVerdict, type Lot, type LotPlan } from './lot';
import { planLine } from './plan-line';

function planDocument(plan: LotPlan) {
  if (plan.kind === 'standard')
    return {
      kind: 'standard',
      standard: 'MIL-STD-105E / ANSI Z1.4 / ISO 2859-1 single sampling',
      lot_size: plan.lotSize,
      aql: plan.aql,
      inspection_level: plan.level,
      inspection: plan.severity,
      code_letter: plan.codeLetter,
      plan_code_letter: plan.planLetter,
      arrow: plan.arrow === 'v' ? 'down' : plan.arrow === '^' ? 'up' : null,
      table_sample_size: plan.tableSampleSize,
      sample_size: plan.sampleSize,
      acceptance_number: plan.ac,
      rejection_number: plan.re,
      switching: plan.switchingWhy,
      reduced_approved: plan.approvedReduced,
      resumed_after_discontinuation: plan.resumed,
    };
  return {
    kind: 'zero-acceptance',
    lot_size: plan.lotSize,
    confidence: plan.confidencePct / 100,
    tolerated_defect_rate: plan.defectRateBp / 10_000,
    assumed_defects: plan.assumedDefects,
    sample_size: plan.sampleSize,
    binomial_sample_size: plan.binomialSize,
    acceptance_number: 0,
    rejection_number: 1,
    formula: plan.formula,
  };
}

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
      summary: planLine(lot.plan),
      ...planDocument(lot.plan),
      extensions: lot.extensions.map((e) => ({ at: new Date(e.at).toISOString(), added: e.added })),
    },
    sample: lot.sampleIds.map((id) => {
      const row = rowsById.get(id);
      const verdict = lotItemVerdict(lot, id, row);
      const by = lot.teamDecisions?.get(id)?.by;
      return {
        item_id: id,
        state: row?.state ?? 'not kept',
        decision: verdict === 'good' ? 'adopt' : verdict === 'defect' ? 'dispute' : null,
        // On a team hub: the member whose decision counts, when it is not this browser's.
        ...(by && !sampleVerdict(row) ? { decided_by: by } : {}),
        decided_at: row?.decidedAt ? new Date(row.decidedAt).toISOString() : null,
      };
    }),
    outcome: {
      reviewed: progress.reviewed,
      defects: progress.defects,
      defect_rate: progress.defectRate,
      wilson_95: progress.interval,
      decision: progress.decision,
      rule: progress.rule,
      rule_applied: progress.applied,
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
