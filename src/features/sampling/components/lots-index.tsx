import { Link } from '@tanstack/react-router';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import type { Connection } from '../../../data';
import { planLine } from '../plan-line';
import { useLots } from '../use-lots';

const count = (n: number) => n.toLocaleString('en-US');

/** The organization's lots kept on this device (on a team hub: the team's), newest first. */
export function LotsIndex({ connection }: { connection: Connection }) {
  const { store, lots, error } = useLots(connection);
  return (
    <div className="flex flex-col gap-3">
      <PageHeader
        title="Lots"
        description={`Lots accepted or disputed by sampling${store?.where === 'team' ? ', shared by the team' : ''}: open the Items view of a subscription, filter it, and choose Sample… to start one.`}
      />
      {error ? <ErrorPanel error={error} /> : null}
      {lots === null ? (
        <p role="status">Reading the lots…</p>
      ) : lots.length === 0 ? (
        <Panel>
          <p className="text-sm">No lot yet.</p>
        </Panel>
      ) : (
        <ul className="flex flex-col gap-2">
          {lots.map((lot) => (
            <li key={lot.id}>
              <Panel className="flex flex-wrap items-center gap-3">
                <Badge tone={lot.kind === 'live' ? 'info' : 'neutral'}>{lot.kind}</Badge>
                <Link to="/lots/$lotId" params={{ lotId: lot.id }} className="font-medium text-brand-600 underline dark:text-brand-100">
                  Lot of {count(lot.plan.lotSize)} · {lot.subscriptionId}
                </Link>
                <span className="text-sm">{planLine(lot.plan)}</span>
                <span className="text-sm text-slate-600 dark:text-slate-400">{lot.source.description}</span>
                <span className="text-sm">
                  {lot.action ? (lot.action.decision === 'adopt' ? 'Rest accepted' : 'Rest disputed') : 'Open'} · {new Date(lot.createdAt).toLocaleString()}
                  {lot.createdBy ? ` · ${lot.createdBy}` : ''}
                </span>
              </Panel>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
