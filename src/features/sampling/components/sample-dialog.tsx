import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { decideRefusal, type Connection, type ConnectionSubscription } from '../../../data';
import { type TriageRow } from '../../../domain/triage';
import { useTriageRows } from '../../triage';
import { LEVELS, masterPlan, PERCENT_AQLS, codeLetter, tighterAql, type Aql, type InspectionLevel, type Severity } from '../aql-tables';
import { inspectionStatus, STATE_TEXT } from '../inspection';
import type { LotPlan, LotSource } from '../lot';
import { ocCurve } from '../oc';
import { parseRateBp, samplePlan } from '../plan';
import { REDUCED_SCORE } from '../switching';
import { startLot, useLots } from '../use-lots';

const CONFIDENCES = [90, 95, 99] as const;
const count = (n: number) => n.toLocaleString('en-US');
const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`;
const SEVERITY_TABLE: Record<Severity, string> = { normal: 'II-A', tightened: 'II-B', reduced: 'II-C' };

/** The standard plan for a lot of `lotSize` items; the sample never exceeds the lot (a small lot is inspected whole). */
function standardPlan(
  lotSize: number,
  level: InspectionLevel,
  aql: Aql,
  severity: Severity,
  switchingWhy: string,
  resumed: boolean,
  approvedReduced: boolean,
): LotPlan {
  const letter = codeLetter(Math.max(lotSize, 2), level);
  const cell = masterPlan(letter, aql, severity);
  const tighter = tighterAql(aql);
  return {
    kind: 'standard',
    lotSize,
    level,
    aql,
    severity,
    codeLetter: letter,
    planLetter: cell.planLetter,
    arrow: cell.arrow,
    tableSampleSize: cell.sampleSize,
    sampleSize: Math.min(cell.sampleSize, lotSize),
    ac: cell.ac,
    re: cell.re,
    tighterAc: tighter ? masterPlan(letter, tighter, 'normal').ac : null,
    switchingWhy,
    resumed,
    approvedReduced,
  };
}

export interface SampleActionProps {
  connection: Connection;
  subscription: ConnectionSubscription;
  /** The items of the source (the current filter or a delivery): only the undecided ones make the lot. */
  rows: readonly TriageRow[];
  source: LotSource;
  /** The button's words. */
  label?: string;
}

/**
 * "Sample…": a lot of the source's undecided items and its plan, shown before anything is drawn:
 * the standard's plan (AQL, inspection level, and the inspection the subscription's switching
 * rules give), or a zero-acceptance plan from a confidence and a tolerated defect rate. Start
 * draws the sample once, keeps the lot and opens its page.
 */
export function SampleAction(props: SampleActionProps) {
  const [open, setOpen] = useState(false);
  const refusalId = useId();
  const undecided = props.rows.filter((row) => row.state === 'undecided').length;
  // A hub viewer reads the team's lots but draws none (a lot leads to decisions): said beside the button, as the review's decide buttons do.
  const refusal = decideRefusal(props.connection);
  return (
    <>
      <Button
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        disabled={undecided === 0 || refusal !== null}
        aria-describedby={refusal ? refusalId : undefined}
        title={undecided === 0 ? 'No undecided item to sample' : undefined}
      >
        {props.label ?? 'Sample…'}
      </Button>
      {refusal && (
        <span id={refusalId} className="max-w-64 text-xs text-slate-600 dark:text-slate-400">
          {LOT_REFUSAL}
        </span>
      )}
      {open && <SampleDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

const LOT_REFUSAL = 'You are a viewer on this team hub: you can read the team’s lots but not draw one.';

function SampleDialog({ connection, subscription, rows, source, onClose }: SampleActionProps & { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const rateId = useId();
  const navigate = useNavigate();
  // The lot is fixed when the dialog opens: what the plan counts is what Start keeps.
  const [lotRows] = useState(() => rows.filter((row) => row.state === 'undecided'));
  const [kind, setKind] = useState<'standard' | 'zero-acceptance'>('standard');
  const [aql, setAql] = useState<Aql>('1.0');
  const [level, setLevel] = useState<InspectionLevel>('II');
  const [approveReduced, setApproveReduced] = useState(false);
  const [resume, setResume] = useState(false);
  const { rows: allRows } = useTriageRows(connection, subscription.id);
  const { store, lots } = useLots(connection);
  const status = useMemo(() => {
    if (!allRows || !lots) return null;
    return inspectionStatus(lots, new Map(allRows.map((row) => [row.item.itemId, row])), subscription.id);
  }, [allRows, lots, subscription.id]);
  const machine = status?.machine ?? null;
  const reducedAllowed = machine?.state === 'normal' && machine.score >= REDUCED_SCORE;
  const severity: Severity | null =
    machine === null
      ? null
      : machine.state === 'discontinued'
        ? resume
          ? 'tightened'
          : null
        : reducedAllowed && approveReduced
          ? 'reduced'
          : machine.state === 'reduced'
            ? 'reduced'
            : machine.state;
  const [confidence, setConfidence] = useState<number>(95);
  const [rateText, setRateText] = useState('5');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const rateBp = parseRateBp(rateText);
  const zeroPlan = useMemo<LotPlan | null>(() => {
    if (rateBp === null || lotRows.length === 0) return null;
    const { missChance: _miss, ...plan } = samplePlan({ lotSize: lotRows.length, confidencePct: confidence, defectRateBp: rateBp });
    return { kind: 'zero-acceptance', ...plan };
  }, [rateBp, lotRows.length, confidence]);
  const stdPlan = useMemo<LotPlan | null>(
    () =>
      severity === null || status === null || lotRows.length === 0
        ? null
        : standardPlan(
            lotRows.length,
            level,
            aql,
            severity,
            `${STATE_TEXT[severity]}. ${status.why}`,
            resume,
            severity === 'reduced' && machine?.state === 'normal',
          ),
    [severity, status, lotRows.length, level, aql, resume, machine],
  );
  const plan = kind === 'standard' ? stdPlan : zeroPlan;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const start = async () => {
    if (!plan || !store) return;
    setBusy(true);
    setError('');
    try {
      const lotId = await startLot(store, { subscriptionId: subscription.id, kind: subscription.kind, source, rows: lotRows, plan });
      onClose();
      await navigate({ to: '/lots/$lotId', params: { lotId } });
    } catch (cause) {
      setError(`The lot could not be kept: ${cause instanceof Error ? cause.message : String(cause)}`);
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto max-h-[min(90dvh,48rem)] w-[min(92vw,36rem)] overflow-y-auto rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Sample {count(lotRows.length)} undecided {lotRows.length === 1 ? 'item' : 'items'}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{source.description}</p>
      <form
        className="mt-3 space-y-4 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <fieldset>
          <legend className="font-medium">Plan</legend>
          <div className="mt-1 flex flex-col gap-1">
            <label className="flex items-center gap-2">
              <input type="radio" name="plan" checked={kind === 'standard'} onChange={() => setKind('standard')} />
              Standard plan (AQL, ISO 2859-1 / ANSI Z1.4 / MIL-STD-105E)
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="plan" checked={kind === 'zero-acceptance'} onChange={() => setKind('zero-acceptance')} />
              Zero acceptance (confidence and tolerated defect rate)
            </label>
          </div>
        </fieldset>
        {kind === 'standard' ? (
          <StandardFields
            aql={aql}
            setAql={setAql}
            level={level}
            setLevel={setLevel}
            state={machine?.state ?? null}
            why={status?.why ?? null}
            pending={status?.pending.length ?? 0}
            reducedAllowed={reducedAllowed}
            approveReduced={approveReduced}
            setApproveReduced={setApproveReduced}
            resume={resume}
            setResume={setResume}
          />
        ) : (
          <>
            <fieldset>
              <legend className="font-medium">Confidence</legend>
              <div className="mt-1 flex gap-4">
                {CONFIDENCES.map((c) => (
                  <label key={c} className="flex items-center gap-2">
                    <input type="radio" name="confidence" value={c} checked={confidence === c} onChange={() => setConfidence(c)} />
                    {c} %
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="flex flex-col gap-1">
              <label htmlFor={rateId} className="font-medium">
                Tolerated defect rate (%)
              </label>
              <input
                id={rateId}
                className={inputClass}
                inputMode="decimal"
                value={rateText}
                aria-invalid={rateBp === null || undefined}
                aria-describedby={`${rateId}-hint`}
                onChange={(event) => setRateText(event.target.value)}
              />
              <p id={`${rateId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                {rateBp === null
                  ? 'A percentage above 0 and below 100, at most two decimals.'
                  : 'The share of defective items you would still accept in the lot.'}
              </p>
            </div>
          </>
        )}
        {plan && <PlanSummary plan={plan} />}
        {error && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!plan || !store || busy}>
            {plan ? `Start: draw ${count(plan.sampleSize)}` : 'Start'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

function StandardFields(props: {
  aql: Aql;
  setAql: (aql: Aql) => void;
  level: InspectionLevel;
  setLevel: (level: InspectionLevel) => void;
  state: 'normal' | 'tightened' | 'reduced' | 'discontinued' | null;
  why: string | null;
  pending: number;
  reducedAllowed: boolean;
  approveReduced: boolean;
  setApproveReduced: (value: boolean) => void;
  resume: boolean;
  setResume: (value: boolean) => void;
}) {
  const aqlId = useId();
  const levelId = useId();
  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={aqlId} className="font-medium">
            AQL (% defective)
          </label>
          <select id={aqlId} className={inputClass} value={props.aql} onChange={(event) => props.setAql(event.target.value as Aql)}>
            {PERCENT_AQLS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={levelId} className="font-medium">
            Inspection level
          </label>
          <select id={levelId} className={inputClass} value={props.level} onChange={(event) => props.setLevel(event.target.value as InspectionLevel)}>
            {LEVELS.map((value) => (
              <option key={value} value={value}>
                {value}
                {value === 'II' ? ' (usual)' : value.startsWith('S') ? ' (special)' : ''}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p role="status" aria-label="Inspection" className="rounded-md bg-slate-50 p-2 dark:bg-slate-800">
        {props.state === null ? (
          'Reading this subscription’s earlier lots…'
        ) : (
          <>
            <strong>{STATE_TEXT[props.state]}</strong> by the switching rules. {props.why}
            {props.pending > 0 && ` ${props.pending} earlier ${props.pending === 1 ? 'lot is' : 'lots are'} not decided yet and will count once decided.`}
          </>
        )}
      </p>
      {props.reducedAllowed && (
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-1" checked={props.approveReduced} onChange={(event) => props.setApproveReduced(event.target.checked)} />
          Production is steady and the responsible authority approves reduced inspection
        </label>
      )}
      {props.state === 'discontinued' && (
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-1" checked={props.resume} onChange={(event) => props.setResume(event.target.checked)} />
          The supplier has acted on the quality: resume, on tightened inspection
        </label>
      )}
    </>
  );
}

/** The plan before anything is drawn: its numbers, and where its OC curve puts the AQL and the RQL. */
function PlanSummary({ plan }: { plan: LotPlan }) {
  const ac = plan.kind === 'standard' ? plan.ac : 0;
  const re = plan.kind === 'standard' ? plan.re : 1;
  const curve = useMemo(
    () => ocCurve({ sampleSize: plan.sampleSize, ac, lotSize: plan.lotSize }, plan.kind === 'standard' ? Number(plan.aql) / 100 : null, 8),
    [plan, ac],
  );
  return (
    <section aria-label="Sampling plan" className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt>Lot size (N)</dt>
        <dd>{count(plan.lotSize)}</dd>
        {plan.kind === 'standard' && (
          <>
            <dt>Code letter</dt>
            <dd>
              {plan.codeLetter}
              {plan.arrow && ` (arrow ${plan.arrow === 'v' ? 'down' : 'up'}: the plan of ${plan.planLetter})`}, Table {SEVERITY_TABLE[plan.severity]}
            </dd>
          </>
        )}
        <dt>Sample size (n)</dt>
        <dd>
          <strong>{count(plan.sampleSize)}</strong>
          {plan.kind === 'standard' && plan.sampleSize < plan.tableSampleSize && ` (the table’s ${count(plan.tableSampleSize)} exceeds the lot: every item)`}
        </dd>
        <dt>Accept if defects ≤ (Ac)</dt>
        <dd>
          <strong>{ac}</strong>
        </dd>
        <dt>Reject if defects ≥ (Re)</dt>
        <dd>
          <strong>{re}</strong>
        </dd>
      </dl>
      {plan.kind === 'standard' ? (
        <p>
          {curve.atAql && `A lot at the AQL (${plan.aql} % defective) is accepted with probability ${pct(curve.atAql.pa)}; `}a lot {pct(curve.rql.p, 2)}{' '}
          defective (RQL) only 10 % of the time.
        </p>
      ) : (
        <p>{plan.formula}</p>
      )}
    </section>
  );
}
