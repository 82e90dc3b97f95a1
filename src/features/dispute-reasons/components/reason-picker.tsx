import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { inputClass } from '../../../components/ui/field';
import { reasonAria, reasonIndexOfKey } from '../keymap';
import { MAX_KEYED, MAX_REASON_CHARS, type ReasonCode } from '../model';

const linkClass = 'text-xs font-semibold text-brand-600 underline dark:text-brand-100';

/** The editor's link (a plain link where no router is mounted, as in component tests). */
function EditReasonsLink() {
  const router = useRouter({ warn: false });
  return router ? (
    <Link to="/dispute-reasons" className={linkClass}>
      Edit reasons
    </Link>
  ) : (
    <a href="/dispute-reasons" className={linkClass}>
      Edit reasons
    </a>
  );
}

export interface ReasonChoice {
  code: string | null;
  text: string;
}

export const NO_CHOICE: ReasonChoice = { code: null, text: '' };

/**
 * The dispute dialog's reason: the organization's codes as a radio group numbered 1–9, then an
 * optional free text. Keys 1–9 pick a code while the focus is not in the text (digits stay
 * typeable there), and any other character starts the text; Enter confirms from anywhere in it;
 * the focus starts on the choice. Used by
 * the review's single and bulk disputes and the Items view's bulk confirmation.
 */
export function ReasonPicker({
  reasons,
  value,
  onChange,
  onSubmit,
  onCancel,
  autoFocus = false,
  textLabel = 'Reason text (optional)',
}: {
  reasons: readonly ReasonCode[];
  value: ReasonChoice;
  onChange: (value: ReasonChoice) => void;
  /** Enter: confirm the dispute. */
  onSubmit: () => void;
  /** Esc, when the picker is not inside a dialog (which cancels by itself). */
  onCancel?: () => void;
  /** Focus the choice on mount (inside a modal dialog, `data-autofocus` does it instead). */
  autoFocus?: boolean;
  textLabel?: string;
}) {
  const name = useId();
  const group = useRef<HTMLFieldSetElement>(null);
  const text = useRef<HTMLInputElement>(null);
  // An unknown code (removed in another tab meanwhile) counts as none.
  const chosen = reasons.some((r) => r.code === value.code) ? value.code : null;

  const radioOf = (code: string | null) => group.current?.querySelector<HTMLInputElement>(`input[type="radio"][value="${code ?? ''}"]`);
  useEffect(() => {
    if (autoFocus) radioOf(chosen)?.focus();
    // Only when it opens: later the user moves the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // A picker its Enter has hidden keeps the focus until it is removed (after that paint): keys meanwhile are the page's.
    if (event.currentTarget.closest('[hidden]')) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      // A link or button keeps its own Enter ("Edit reasons", Cancel).
      if ((event.target as HTMLElement).closest('a, button')) return;
      event.preventDefault();
      event.stopPropagation();
      onSubmit();
      return;
    }
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
      return;
    }
    if (event.target === text.current) return;
    const index = reasonIndexOfKey(event.key);
    if (index === null) {
      // Typing on the choice writes the reason text: the field takes the focus before the key's
      // default action, so the character lands there (a reviewer types `d`, `2`, then the words).
      // Space stays the radio's own key; the page's shortcuts never see the letter.
      if (event.key.length === 1 && event.key !== ' ') {
        event.stopPropagation();
        text.current?.focus();
      }
      return;
    }
    // Handled here, so no other shortcut of the page (the viewer's 1) runs as well.
    event.preventDefault();
    event.stopPropagation();
    const reason = reasons[index];
    if (!reason) return;
    onChange({ ...value, code: reason.code });
    radioOf(reason.code)?.focus();
  };

  const room = MAX_REASON_CHARS - (chosen ? chosen.length + 2 : 0);
  const option = 'flex min-h-9 items-center gap-2 rounded px-1 hover:bg-white/60 dark:hover:bg-black/20';
  return (
    <div onKeyDown={onKeyDown} className="flex w-full flex-col gap-2 text-sm">
      <fieldset ref={group} className="flex flex-col gap-1">
        <legend className="mb-1 flex w-full flex-wrap items-baseline justify-between gap-2 font-medium">
          <span>Reason code (keys 1–{Math.min(MAX_KEYED, reasons.length)})</span>
          <EditReasonsLink />
        </legend>
        <div className="grid gap-x-3 sm:grid-cols-2">
          {reasons.map((reason, index) => (
            <label key={reason.code} className={option}>
              <input
                type="radio"
                name={name}
                value={reason.code}
                checked={chosen === reason.code}
                onChange={() => onChange({ ...value, code: reason.code })}
                aria-keyshortcuts={reasonAria(index)}
                data-autofocus={chosen === reason.code ? true : undefined}
              />
              <kbd aria-hidden className="w-4 font-mono text-xs text-slate-600 dark:text-slate-400">
                {index < MAX_KEYED ? index + 1 : ''}
              </kbd>
              <span className="[overflow-wrap:anywhere]">
                {reason.label} <code className="text-xs text-slate-600 dark:text-slate-400">({reason.code})</code>
              </span>
            </label>
          ))}
          <label className={option}>
            <input
              type="radio"
              name={name}
              value=""
              checked={chosen === null}
              onChange={() => onChange({ ...value, code: null })}
              data-autofocus={chosen === null ? true : undefined}
            />
            <span className="w-4" aria-hidden />
            <span>No code</span>
          </label>
        </div>
      </fieldset>
      <label className="flex flex-col gap-1">
        <span>{textLabel}</span>
        <input
          ref={text}
          className={`${inputClass} w-full`}
          value={value.text}
          maxLength={room}
          onChange={(e) => onChange({ ...value, text: e.target.value })}
        />
      </label>
    </div>
  );
}
