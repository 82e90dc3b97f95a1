import { Link } from '@tanstack/react-router';
import { useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { NotFoundPanel } from '../../../components/ui/not-found-panel';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import type { Connection, ConnectionSubscription } from '../../../data';
import { formatMicros } from '../../../lib/money';
import { cx } from '../../../lib/cx';
import { TRIAGE_STATE_LABELS, type TriageRow } from '../../../domain/triage';
import { useTriageRows } from '../../triage';
import { lotItemVerdict, lotProgress, snapshotOf, type Lot, type LotAction, type LotProgress } from '../lot';
import { lotDocument } from '../lot-export';
import { DECISION_TEXT, RECOMMENDATION_TEXT } from '../decision';
import { percentText } from '../plan';
import { planLine } from '../plan-line';
import type { LotStore } from '../lot-store';
import { recordLotAction, useLot } from '../use-lots';
import { OcPanel } from './oc-panel';
import { InspectionPanel } from './inspection-panel';

const count = (n: number) => n.toLocaleString('en-US');
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const linkClass = 'rounded-md px-3 py-1.5 text-sm font-medium';

/** What the bulk decisions on a lot's rest are given (the bulk feature's `BulkActions`, composed by the route). */
interface RestActionsProps {
  connection: Connection;
  subscription: ConnectionSubscription;
  rows: readonly TriageRow[];
  labels: { adopt: string; dispute: string };
  onRecorded: (run: { decision: LotAction['decision']; recorded: number; totalMicros: number | null }) => void;
}

/** A file written as text and offered as a download (the export feature's `blobSink`, composed by the route). */
type SaveFile = (fileName: string, type: string) => { write(chunk: string): Promise<void>; close(): Promise<void> };

interface Composed {
  RestActions: ComponentType<RestActionsProps>;
  saveFile: SaveFile;
}

/** A lot's page: the plan, the sample's progress and outcome, and what to do with the rest. */
export function LotPage({ connection, lotId, ...composed }: { connection: Connection; lotId: string } & Composed) {
  const { store, lot, error } = useLot(connection, lotId);
  if (error) return <ErrorPanel error={error} />;
  if (lot === undefined || store === null) return <p role="status">Reading the lot…</p>;
  if (lot === null)
    return (
      <NotFoundPanel title={`No lot ${lotId}`} back={{ label: 'All lots', link: { to: '/lots' } }}>
        {store.where === 'team' ? 'The team hub keeps no such lot.' : 'This device keeps no such lot for this organization.'}
      </NotFoundPanel>
    );
  return <LotView connection={connection} store={store} lot={lot} {...composed} />;
}

function LotView({ connection, store, lot, RestActions, saveFile }: { connection: Connection; store: LotStore; lot: Lot } & Composed) {
  const subscription = connection.subscriptions.find((s) => s.id === lot.subscriptionId);
  const { rows, error } = useTriageRows(connection, lot.subscriptionId);
  const rowsById = useMemo(() => (rows ? new Map(rows.map((row) => [row.item.itemId, row])) : null), [rows]);
  const progress = useMemo(() => (rowsById ? lotProgress(lot, rowsById) : null), [lot, rowsById]);
  const [message, setMessage] = useState('');
  const label = subscription?.label ?? lot.subscriptionId;

  // What the user did with the rest is kept with the lot (told once a confirmed run is recorded).
  const recordRest: RestActionsProps['onRecorded'] = (run) => {
    if (!progress) return;
    void recordLotAction(store, lot.id, {
      decision: run.decision,
      at: Date.now(),
      recorded: run.recorded,
      totalMicros: run.totalMicros,
      outcome: snapshotOf(progress),
    }).catch((cause: unknown) =>
      // The decisions are sent (the outbox has them); only the lot's note of them failed (the hub unreachable): say so, never drop it silently.
      setMessage(
        `The decisions were recorded, but the lot could not note what was done with the rest: ${cause instanceof Error ? cause.message : String(cause)}`,
      ),
    );
  };

  const exportLot = async () => {
    if (!rowsById) return;
    const sink = saveFile(`lot-${lot.id}.json`, 'application/json');
    await sink.write(JSON.stringify(lotDocument(lot, rowsById), null, 2));
    await sink.close();
    setMessage(`Saved the lot as lot-${lot.id}.json.`);
  };

  const restActions = progress && subscription && (
    <RestActions
      connection={connection}
      subscription={subscription}
      rows={progress.rest}
      labels={{ adopt: 'Accept the rest', dispute: 'Dispute the rest' }}
      onRecorded={recordRest}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`Lot · ${label}`}
        description={
          <>
            {lot.source.description}. Made {new Date(lot.createdAt).toLocaleString()}
            {lot.createdBy ? ` by ${lot.createdBy}` : ''}; <code className="text-xs">{lot.id}</code>
          </>
        }
        actions={
          <>
            <Badge tone={lot.kind === 'live' ? 'info' : 'neutral'}>{lot.kind}</Badge>
            <Link to="/lots" className={cx(linkClass, 'border border-slate-300 dark:border-slate-600')}>
              All lots
            </Link>
          </>
        }
      />
      {error ? <ErrorPanel error={error} /> : null}
      {!subscription && (
        <p role="alert" className="text-sm">
          This connection no longer lists subscription {lot.subscriptionId}: add it to review or decide this lot.
        </p>
      )}
      <Panel aria-labelledby="lot-plan" className="flex flex-col gap-2">
        <h2 id="lot-plan" className="font-semibold">
          Plan
        </h2>
        <p className="text-sm font-medium" aria-label="The plan">
          {planLine(lot.plan)}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {lot.plan.kind === 'standard'
            ? `Single sampling plan of MIL-STD-105E Table ${lot.plan.severity === 'normal' ? 'II-A' : lot.plan.severity === 'tightened' ? 'II-B' : 'II-C'} (the same plans as ANSI/ASQ Z1.4 and ISO 2859-1). Switching rules when it was drawn: ${lot.plan.switchingWhy}`
            : lot.plan.formula}
        </p>
        {lot.sampleIds.length > lot.plan.sampleSize && (
          <p className="text-sm">
            {count(lot.sampleIds.length - lot.plan.sampleSize)} more items were drawn into this sample by an earlier version of the console.
          </p>
        )}
      </Panel>
      {progress === null ? (
        <p role="status">Reading the lot's items…</p>
      ) : (
        <>
          <Outcome lot={lot} progress={progress}>
            {subscription && (
              <Link
                to="/review/$subscriptionId"
                params={{ subscriptionId: lot.subscriptionId }}
                search={{ mode: 'new', limit: 50, lot: lot.id }}
                className={cx(linkClass, 'bg-brand-600 text-white hover:bg-brand-700')}
              >
                Review the sample
              </Link>
            )}
            <Button onClick={() => void exportLot()}>Export the lot (JSON)</Button>
          </Outcome>
          <p role="status" className="text-sm empty:hidden">
            {message}
          </p>
          <SampleList lot={lot} rowsById={rowsById!} />
        </>
      )}
      {progress && subscription && (
        <Panel aria-labelledby="lot-rest" className="flex flex-col gap-3">
          <h2 id="lot-rest" className="font-semibold">
            The rest of the lot ({count(progress.rest.length)} {progress.rest.length === 1 ? 'item' : 'items'} outside the sample)
          </h2>
          {progress.recommendation !== 'review-sample' && (
            <p className="text-sm">
              The plan recommends: <strong>{RECOMMENDATION_TEXT[progress.recommendation]}</strong>
              {progress.recommendation === 'dispute' ? ', with a reason.' : '.'}
            </p>
          )}
          {progress.recommendation === 'review-sample' ? (
            // The plan has not decided: accepting the rest now would skip the inspection the lot was drawn for.
            // Still possible, one step away, for a buyer who decides on other grounds.
            <details className="text-sm">
              <summary className="cursor-pointer">
                Review the sample first: the plan decides the rest once all {count(progress.sampleSize - progress.missing)} sampled items are reviewed (
                {count(progress.reviewed)} so far). Decide it now anyway…
              </summary>
              <div className="mt-2">{restActions}</div>
            </details>
          ) : (
            restActions
          )}
          <RestSummary rest={progress.rest} />
          {lot.action && <ActionRecord lot={lot} />}
        </Panel>
      )}
      <OcPanel plan={lot.plan} />
      {lot.plan.kind === 'standard' && rowsById && <InspectionPanel connection={connection} subscriptionId={lot.subscriptionId} rowsById={rowsById} />}
    </div>
  );
}

function Outcome({ lot, progress, children }: { lot: Lot; progress: LotProgress; children: ReactNode }) {
  return (
    <Panel aria-labelledby="lot-outcome" className="flex flex-col gap-2">
      <h2 id="lot-outcome" className="font-semibold">
        Sample
      </h2>
      <div className="flex flex-wrap items-center gap-2">{children}</div>
      <progress className="w-full" aria-label="Sample reviewed" max={Math.max(progress.sampleSize, 1)} value={progress.reviewed} />
      <p className="text-sm">
        <strong>
          {count(progress.reviewed)} of {count(progress.sampleSize)} reviewed
        </strong>
        {progress.missing > 0 && ` (${count(progress.missing)} no longer kept on this device)`}; <strong>{count(progress.defects)}</strong>{' '}
        {progress.defects === 1 ? 'defect' : 'defects'} found (disputed), {count(progress.reviewed - progress.defects)} good (adopted).
        {progress.unsent > 0 &&
          ` ${count(progress.unsent)} of these ${progress.unsent === 1 ? 'decision is' : 'decisions are'} not confirmed by the service yet: on ${progress.unsent === 1 ? 'its' : 'their'} way, or, left from an earlier visit, waiting for your “Send and pay”.`}
      </p>
      <div role="status" aria-label="Recommendation" className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
        <p>
          Lot: <strong>{DECISION_TEXT[progress.decision]}</strong>. Recommendation: <strong>{RECOMMENDATION_TEXT[progress.recommendation]}</strong>
        </p>
        <p className="mt-1">
          <span className="font-medium">Decision rule:</span> {progress.rule}
        </p>
        <p className="mt-1">
          <span className="font-medium">Applied:</span> {progress.applied}
        </p>
      </div>
      {progress.interval && progress.defectRate !== null && (
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-label="Observed defect rate">
          Observed defect rate {pct(progress.defectRate)}, 95 % Wilson interval {pct(progress.interval.lower)} – {pct(progress.interval.upper)}
          {lot.plan.kind === 'standard' ? ` (AQL ${lot.plan.aql} %)` : ` (tolerated: ${percentText(lot.plan.defectRateBp)})`}: for information; the plan’s rule
          decides.
        </p>
      )}
    </Panel>
  );
}

/** The sampled items in draw order with where each stands, folded: a sample can run to hundreds. */
function SampleList({ lot, rowsById }: { lot: Lot; rowsById: ReadonlyMap<string, TriageRow> }) {
  return (
    <details className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
      <summary className="cursor-pointer font-medium">The sampled items ({count(lot.sampleIds.length)})</summary>
      <ol aria-label="Sampled items" className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-2 lg:grid-cols-3">
        {lot.sampleIds.map((id) => {
          const verdict = lotItemVerdict(lot, id, rowsById.get(id));
          const state = rowsById.get(id)?.state;
          const by = lot.teamDecisions?.get(id)?.by;
          return (
            <li key={id} className="flex gap-2">
              <code className="min-w-0 text-xs [overflow-wrap:anywhere]">{id}</code>
              <span className={verdict === 'defect' ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}>
                {verdict === 'good' ? 'good' : verdict === 'defect' ? 'defect' : state ? TRIAGE_STATE_LABELS[state].toLowerCase() : 'not kept'}
                {verdict && by ? ` (${by})` : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </details>
  );
}

function RestSummary({ rest }: { rest: readonly TriageRow[] }) {
  const undecided = rest.filter((row) => row.state === 'undecided').length;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400">
      {count(undecided)} of them undecided; the confirmation names any that are skipped and, for simulated items, the exact charge.
    </p>
  );
}

function ActionRecord({ lot }: { lot: Lot }) {
  const action = lot.action!;
  const { outcome } = action;
  return (
    <p className="text-sm" aria-label="What was done with the rest">
      {action.decision === 'adopt' ? 'Accepted' : 'Disputed'} the rest on {new Date(action.at).toLocaleString()}: {count(action.recorded)}{' '}
      {action.recorded === 1 ? 'decision' : 'decisions'} recorded
      {action.totalMicros !== null && `, charging ${formatMicros(action.totalMicros)}`}. The sample then: {count(outcome.defects)} of {count(outcome.reviewed)}{' '}
      defective{outcome.decision ? ` (${DECISION_TEXT[outcome.decision].toLowerCase()})` : ''}, recommendation{' '}
      {RECOMMENDATION_TEXT[outcome.recommendation].toLowerCase()}.
    </p>
  );
}
