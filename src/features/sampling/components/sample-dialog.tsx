import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import type { Connection, ConnectionSubscription } from '../../../data';
import type { TriageRow } from '../../triage';
import { parseRateBp, samplePlan, type SamplePlan } from '../plan';
import { startLot, useLocalScope } from '../use-lots';
import type { LotSource } from '../lot';

const CONFIDENCES = [90, 95, 99] as const;
const count = (n: number) => n.toLocaleString('en-US');

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
 * "Sample…": a lot of the source's undecided items, a plan from the chosen confidence and
 * tolerated defect rate (its size and formula shown before anything is drawn), then Start draws
 * the sample once, keeps the lot and opens its page.
 */
export function SampleAction(props: SampleActionProps) {
  const [open, setOpen] = useState(false);
  const undecided = props.rows.filter((row) => row.state === 'undecided').length;
  return (
    <>
      <Button
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        disabled={undecided === 0}
        title={undecided === 0 ? 'No undecided item to sample' : undefined}
      >
        {props.label ?? 'Sample…'}
      </Button>
      {open && <SampleDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

function SampleDialog({ connection, subscription, rows, source, onClose }: SampleActionProps & { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const rateId = useId();
  const navigate = useNavigate();
  const scope = useLocalScope(connection);
  // The lot is fixed when the dialog opens: what the plan counts is what Start keeps.
  const [lotRows] = useState(() => rows.filter((row) => row.state === 'undecided'));
  const [confidence, setConfidence] = useState<number>(95);
  const [rateText, setRateText] = useState('5');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const rateBp = parseRateBp(rateText);
  const plan = useMemo<SamplePlan | null>(
    () => (rateBp === null || lotRows.length === 0 ? null : samplePlan({ lotSize: lotRows.length, confidencePct: confidence, defectRateBp: rateBp })),
    [rateBp, lotRows.length, confidence],
  );

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const start = async () => {
    if (!plan || !scope) return;
    setBusy(true);
    setError('');
    try {
      const lotId = await startLot({ scope, subscriptionId: subscription.id, kind: subscription.kind, source, rows: lotRows, plan });
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
            {rateBp === null ? 'A percentage above 0 and below 100, at most two decimals.' : 'The share of defective items you would still accept in the lot.'}
          </p>
        </div>
        {plan && (
          <section aria-label="Sampling plan" className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt>Lot size (N)</dt>
              <dd>{count(plan.lotSize)}</dd>
              <dt>Sample size (n)</dt>
              <dd>
                <strong>{count(plan.sampleSize)}</strong>
              </dd>
            </dl>
            <p>{plan.formula}</p>
          </section>
        )}
        {error && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!plan || !scope || busy}>
            {plan ? `Start: draw ${count(plan.sampleSize)}` : 'Start'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
