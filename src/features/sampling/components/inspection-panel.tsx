import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Panel } from '../../../components/ui/panel';
import type { Connection } from '../../../data';
import type { TriageRow } from '../../../domain/triage';
import { inspectionStatus, STATE_TEXT } from '../inspection';
import { useLots } from '../use-lots';

/** The subscription's switching state, why, and its history lot by lot. */
export function InspectionPanel({
  connection,
  subscriptionId,
  rowsById,
}: {
  connection: Connection;
  subscriptionId: string;
  rowsById: ReadonlyMap<string, TriageRow>;
}) {
  const { lots } = useLots(connection);
  const status = useMemo(() => (lots ? inspectionStatus(lots, rowsById, subscriptionId) : null), [lots, rowsById, subscriptionId]);
  if (!status) return null;
  return (
    <Panel aria-labelledby="lot-switching" className="flex flex-col gap-2">
      <h2 id="lot-switching" className="font-semibold">
        Switching rules for {subscriptionId}
      </h2>
      <p className="text-sm" role="status" aria-label="Inspection state">
        Now: <strong>{STATE_TEXT[status.machine.state]}</strong>. {status.why}
      </p>
      {status.pending.length > 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {status.pending.length} {status.pending.length === 1 ? 'lot is' : 'lots are'} not decided yet and will count once decided.
        </p>
      )}
      {status.steps.length > 0 && (
        <ol aria-label="Switching history" className="flex flex-col gap-1 text-sm">
          {status.steps.map((step, i) => (
            <li key={`${step.lot.id}-${i}`} className="flex flex-wrap gap-x-2">
              <Link to="/lots/$lotId" params={{ lotId: step.lot.id }} className="underline">
                {new Date(step.lot.createdAt).toLocaleString()}
              </Link>
              <span>
                {STATE_TEXT[step.from]}
                {step.to !== step.from ? ` → ${STATE_TEXT[step.to]}` : ''}: {step.why}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
