import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import type { Connection } from '../../../data';
import { useDisputeReasons } from '../hooks';
import {
  addReason,
  codeError,
  codeFromLabel,
  DEFAULT_REASONS,
  labelError,
  MAX_CODE_CHARS,
  MAX_CODES,
  MAX_KEYED,
  MAX_LABEL_CHARS,
  moveReason,
  removeReason,
  renameReason,
  type ReasonCode,
} from '../model';

/** One code: its key, its label (renamed on Enter or when the field is left), moves and removal. */
function ReasonRow({
  reason,
  index,
  count,
  onRename,
  onMove,
  onRemove,
}: {
  reason: ReasonCode;
  index: number;
  count: number;
  onRename: (label: string) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? reason.label;
  const error = draft !== null ? labelError(draft) : null;
  const errorId = `reason-${reason.code}-error`;
  const commit = () => {
    if (draft === null) return;
    if (!labelError(draft) && draft.trim() !== reason.label) onRename(draft);
    if (!labelError(draft)) setDraft(null);
  };
  return (
    <li className="flex flex-wrap items-center gap-2 border-b border-slate-200 py-2 last:border-b-0 dark:border-slate-700">
      <span className="w-12 shrink-0 text-sm text-slate-600 dark:text-slate-400">{index < MAX_KEYED ? `key ${index + 1}` : 'no key'}</span>
      {/* At least 12rem: on a phone the buttons go below the label rather than squeezing it. */}
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        <input
          className={`${inputClass} w-full min-w-0`}
          aria-label={`Label of ${reason.code}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          value={shown}
          maxLength={MAX_LABEL_CHARS + 10}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            } else if (e.key === 'Escape') setDraft(null);
          }}
        />
        <code className="text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">{reason.code}</code>
        {error && (
          <p id={errorId} className="text-xs text-red-800 dark:text-red-200">
            {error}
          </p>
        )}
      </div>
      <div className="flex gap-1">
        <Button size="sm" aria-label={`Move ${reason.code} up`} disabled={index === 0} onClick={() => onMove(-1)}>
          ↑
        </Button>
        <Button size="sm" aria-label={`Move ${reason.code} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
          ↓
        </Button>
        {/* Quiet: a column of solid red buttons shouted louder than the codes themselves. */}
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Remove ${reason.code}`}
          title={count <= 1 ? 'The last code stays' : `Remove ${reason.code}`}
          disabled={count <= 1}
          onClick={onRemove}
          className="text-slate-600 hover:text-red-800 disabled:opacity-40 dark:text-slate-300 dark:hover:text-red-200"
        >
          <TrashIcon />
        </Button>
      </div>
    </li>
  );
}

/** A bin outline (decorative: the button's accessible name says what it does). */
function TrashIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
      <path d="M3.5 5.5h13M8 5.5V4a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1v1.5M5.5 5.5l.8 10.6a1 1 0 0 0 1 .9h5.4a1 1 0 0 0 1-.9l.8-10.6M8.5 9v5M11.5 9v5" />
    </svg>
  );
}

/**
 * The organization's dispute reason codes: rename, reorder, add, remove. Every change is written
 * at once to the local store for the organization and shows in its other tabs. A code stays what it
 * is once created (statistics and exports group by it); its label can change freely.
 */
export function DisputeReasonsPage({ connection }: { connection: Connection }) {
  const { reasons, loaded, change, team } = useDisputeReasons(connection);
  const [status, setStatus] = useState('');
  const [label, setLabel] = useState('');
  const [code, setCode] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const newCode = code ?? codeFromLabel(label);
  const codes = reasons.map((r) => r.code);
  const addErrors = { label: labelError(label), code: codeError(newCode, codes) };
  const full = reasons.length >= MAX_CODES;
  // Said once Add was tried, or as soon as a code is typed by hand.
  const showLabelError = tried && addErrors.label !== null;
  const showCodeError = (tried || code !== null) && addErrors.code !== null;

  const apply = (edit: (list: readonly ReasonCode[]) => readonly ReasonCode[], done: string) => {
    change(edit).then(
      () => setStatus(done),
      (error: unknown) => setStatus(`Not saved: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (addErrors.label || addErrors.code || full) return;
    apply((list) => addReason(list, { code: newCode, label }), `Added ${newCode}.`);
    setLabel('');
    setCode(null);
    setTried(false);
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Dispute reasons"
        description={`${
          team
            ? `The team’s reason codes, kept on the hub: every member disputes with them${team.editable ? '' : ', and only an admin of the team changes them'}.`
            : `The reason codes of ${connection.verified?.org_id ?? 'this organization'}, kept in this browser for every key of it.`
        } In the dispute dialog keys 1–${MAX_KEYED} pick the first ${MAX_KEYED}; the code is sent first in the dispute’s reason, then your text (“missing_object: tail not boxed”).`}
      />
      <Panel aria-labelledby="reason-list-title">
        <h2 id="reason-list-title" className="mb-2 text-base font-semibold">
          Codes, in the dialog’s order
        </h2>
        {!loaded ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Reading the codes…</p>
        ) : (
          <ol aria-label="Reason codes" className="flex flex-col">
            {reasons.map((reason, index) => (
              <ReasonRow
                key={reason.code}
                reason={reason}
                index={index}
                count={reasons.length}
                onRename={(to) => apply((list) => renameReason(list, reason.code, to), `Renamed ${reason.code} to “${to.trim()}”.`)}
                onMove={(by) => apply((list) => moveReason(list, reason.code, by), `Moved ${reason.code} ${by < 0 ? 'up' : 'down'}.`)}
                onRemove={() => apply((list) => removeReason(list, reason.code), `Removed ${reason.code}.`)}
              />
            ))}
          </ol>
        )}
        <p role="status" className="mt-2 min-h-5 text-sm">
          {status}
        </p>
      </Panel>
      <Panel aria-labelledby="reason-add-title">
        <h2 id="reason-add-title" className="mb-2 text-base font-semibold">
          Add a code
        </h2>
        <form onSubmit={add} aria-label="Add a reason code" className="flex flex-wrap items-start gap-2" noValidate>
          <div className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
            <label className="flex flex-col gap-1">
              <span>New reason label</span>
              <input
                className={`${inputClass} w-full`}
                value={label}
                maxLength={MAX_LABEL_CHARS}
                aria-invalid={showLabelError ? true : undefined}
                aria-describedby={showLabelError ? 'new-reason-label-error' : undefined}
                onChange={(e) => setLabel(e.target.value)}
              />
            </label>
            {showLabelError && (
              <p id="new-reason-label-error" className="text-xs text-red-800 dark:text-red-200">
                {addErrors.label}
              </p>
            )}
          </div>
          <div className="flex min-w-0 flex-1 basis-48 flex-col gap-1 text-sm">
            <label className="flex flex-col gap-1">
              <span>New reason code (snake_case)</span>
              <input
                className={`${inputClass} w-full font-mono`}
                value={newCode}
                maxLength={MAX_CODE_CHARS}
                aria-invalid={showCodeError ? true : undefined}
                aria-describedby={showCodeError ? 'new-reason-code-error' : undefined}
                onChange={(e) => setCode(e.target.value)}
                spellCheck={false}
                autoCapitalize="off"
              />
            </label>
            {showCodeError && (
              <p id="new-reason-code-error" className="text-xs text-red-800 dark:text-red-200">
                {addErrors.code}
              </p>
            )}
          </div>
          <Button type="submit" variant="primary" className="mt-6" disabled={!loaded || full}>
            Add reason
          </Button>
        </form>
        {full && <p className="mt-2 text-sm">The list holds at most {MAX_CODES} codes: remove one to add another.</p>}
        <div className="mt-4">
          <Button disabled={!loaded} onClick={() => apply(() => DEFAULT_REASONS, 'Restored the default codes.')}>
            Restore the default codes
          </Button>
        </div>
      </Panel>
    </div>
  );
}
