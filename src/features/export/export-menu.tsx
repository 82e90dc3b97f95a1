import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { WeakMemo } from '../../lib/memo';
import { useNames, type Connection, type ConnectionSubscription } from '../../data';
import { useDisputeReasons } from '../dispute-reasons';
import type { TriageRow } from '../../domain/triage';
import { ExportResult } from './export-result';
import { countImageRows, findImageItems } from './image-items';
import { buildManifest, exportFileName, type ExportFormat, type ExportSelection } from './manifest';
import { storeSource } from './read-records';
import { chooseSink } from './sinks';
import { useExportRun, type ExportPhase } from './use-export-run';

export interface ExportMenuProps {
  connection: Connection;
  subscription: ConnectionSubscription;
  /** The items view's current filter. */
  rows: readonly TriageRow[];
  /** Every item of the subscription the store holds. */
  allRows: readonly TriageRow[];
  filters: Record<string, unknown>;
}

const SELECTION_LABELS: Record<ExportSelection, string> = { adopted: 'Adopted items', filter: 'The current filter', all: 'Everything' };
const FORMAT_LABELS: Record<ExportFormat, string> = { jsonl: 'JSON Lines (.jsonl)', csv: 'CSV (.csv)', coco: 'COCO JSON (.coco.json)' };
const count = (n: number) => n.toLocaleString('en-US');
const items = (n: number) => `${count(n)} ${n === 1 ? 'item' : 'items'}`;

/** "Export…": a modal dialog choosing what and in which format, then the export's progress and result. */
export function ExportMenu({ connection, subscription, rows, allRows, filters }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} aria-haspopup="dialog">
        Export…
      </Button>
      {open && (
        <ExportDialog connection={connection} subscription={subscription} rows={rows} allRows={allRows} filters={filters} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function ExportDialog({ connection, subscription, rows, allRows, filters, onClose }: ExportMenuProps & { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const names = useNames();
  const selections = useMemo<Record<ExportSelection, readonly TriageRow[]>>(
    () => ({ adopted: allRows.filter((row) => row.state === 'adopted'), filter: rows, all: allRows }),
    [rows, allRows],
  );
  const [selection, setSelection] = useState<ExportSelection>(() => (selections.adopted.length > 0 ? 'adopted' : 'filter'));
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const { phase, start, cancel, reset, fail } = useExportRun();
  const { reasons } = useDisputeReasons(connection);
  const images = useImageItems(allRows, phase.kind === 'running');
  const chosen = selections[selection];
  const imageCount = images && !(images instanceof Error) ? countImageRows(chosen, images) : null;
  const cocoReason =
    images instanceof Error
      ? `Could not read the items' content: ${images.message}`
      : imageCount === null
        ? 'Checking which items are images with annotations…'
        : imageCount === 0
          ? 'None of these items is an image with boxes, polygons or keypoints.'
          : null;
  // COCO chosen, then a selection without images: back to JSON Lines rather than a disabled choice.
  const effectiveFormat = format === 'coco' && cocoReason ? 'jsonl' : format;
  const running = phase.kind === 'running';

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const onExport = async () => {
    const now = new Date();
    const fileName = exportFileName(subscription.id, selection, effectiveFormat, now);
    // The picker must open inside the click: nothing is awaited before it.
    const sink = await chooseSink(fileName, effectiveFormat).catch((error: unknown) => {
      fail(error);
      return null;
    });
    if (!sink) return;
    const reasonCodes = reasons.map((r) => r.code);
    // The view's filters chose the items only under "The current filter": another selection's manifest names none.
    const chosenBy = selection === 'filter' ? filters : {};
    const manifest = buildManifest({
      format: effectiveFormat,
      connection,
      subscription,
      selection,
      filters: chosenBy,
      items: chosen.map((row) => row.item),
      names,
      reasonCodes,
      now,
    });
    await start({ rows: chosen, format: effectiveFormat, manifest, sink, fileName });
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto max-h-[min(90dvh,48rem)] w-[min(92vw,32rem)] overflow-y-auto rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
      onCancel={(event) => {
        event.preventDefault();
        if (running) cancel();
        else onClose();
      }}
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Export {subscription.label ?? subscription.id}
      </h2>
      {phase.kind === 'idle' ? (
        <form
          className="mt-3 space-y-4 text-sm"
          onSubmit={(event) => {
            event.preventDefault();
            void onExport();
          }}
        >
          <fieldset>
            <legend className="font-medium">What</legend>
            {(Object.keys(SELECTION_LABELS) as ExportSelection[]).map((key) => (
              <label key={key} className="mt-1 flex items-center gap-2">
                <input type="radio" name="selection" value={key} checked={selection === key} onChange={() => setSelection(key)} />
                {SELECTION_LABELS[key]} ({items(selections[key].length)})
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend className="font-medium">Format</legend>
            {(Object.keys(FORMAT_LABELS) as ExportFormat[]).map((key) => {
              const disabled = key === 'coco' && cocoReason !== null;
              return (
                <div key={key} className="mt-1">
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="format"
                      value={key}
                      checked={effectiveFormat === key}
                      disabled={disabled}
                      aria-describedby={key === 'coco' ? `${titleId}-coco` : undefined}
                      onChange={() => setFormat(key)}
                    />
                    {FORMAT_LABELS[key]}
                  </label>
                  {key === 'coco' && (
                    <p id={`${titleId}-coco`} className="ml-6 text-xs text-slate-600 dark:text-slate-400">
                      {cocoReason ??
                        `${items(imageCount ?? 0)} with image annotations${chosen.length > (imageCount ?? 0) ? `; ${count(chosen.length - (imageCount ?? 0))} left out` : ''}.`}
                    </p>
                  )}
                </div>
              );
            })}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Close</Button>
            <Button type="submit" variant="primary" disabled={chosen.length === 0}>
              Export {items(chosen.length)}
            </Button>
          </div>
        </form>
      ) : (
        <ExportStatus phase={phase} onCancel={cancel} onBack={reset} onClose={onClose} />
      )}
    </dialog>
  );
}

function ExportStatus({
  phase,
  onCancel,
  onBack,
  onClose,
}: {
  phase: Exclude<ExportPhase, { kind: 'idle' }>;
  onCancel: () => void;
  onBack: () => void;
  onClose: () => void;
}) {
  if (phase.kind === 'running') {
    const { done, total, pass, passes } = phase.progress;
    const overall = total === 0 ? 1 : ((pass - 1) * total + done) / (passes * total);
    const step =
      passes === 1
        ? 'Writing'
        : phase.format === 'csv'
          ? pass === 1
            ? 'Finding the columns'
            : 'Writing'
          : pass === 1
            ? 'Writing images'
            : 'Writing annotations';
    return (
      <div className="mt-3 space-y-3 text-sm">
        <progress className="w-full" aria-label="Export progress" max={1} value={overall} />
        <p aria-live="polite">
          {step}: {count(done)} of {items(total)}
        </p>
        <div className="flex justify-end">
          <Button onClick={onCancel}>Cancel</Button>
        </div>
      </div>
    );
  }
  const message = phase.kind === 'cancelled' ? 'Export cancelled: nothing was saved.' : phase.kind === 'failed' ? `Export failed: ${phase.message}` : null;
  return (
    <div className="mt-3 space-y-3 text-sm">
      {phase.kind === 'saved' ? <ExportResult phase={phase} /> : <p role={phase.kind === 'failed' ? 'alert' : 'status'}>{message}</p>}
      <div className="flex justify-end gap-2">
        <Button onClick={onBack}>Export again</Button>
        <Button variant="primary" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </div>
  );
}

/** Image items found per list of rows: a dialog opened again over the same rows does not read them again. */
const imageItemsCache = new WeakMemo<readonly TriageRow[], ReadonlySet<string>>();

/**
 * The image items among all rows (null while the records are being read). The reading stops while
 * an export runs (`paused`): the export reads the same records, and one reader is enough.
 */
function useImageItems(allRows: readonly TriageRow[], paused: boolean): ReadonlySet<string> | Error | null {
  const [failed, setFailed] = useState<{ rows: readonly TriageRow[]; error: Error } | null>(null);
  const [, setFound] = useState(0);
  useEffect(() => {
    if (paused || imageItemsCache.has(allRows)) return;
    const abort = new AbortController();
    findImageItems(storeSource(allRows), abort.signal).then(
      (ids) => {
        if (abort.signal.aborted) return;
        imageItemsCache.set(allRows, ids);
        setFound((n) => n + 1);
      },
      (error: unknown) => !abort.signal.aborted && setFailed({ rows: allRows, error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => abort.abort();
  }, [allRows, paused]);
  return imageItemsCache.get(allRows) ?? (failed?.rows === allRows ? failed.error : null);
}
