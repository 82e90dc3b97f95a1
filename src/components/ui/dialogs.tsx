import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { ErrorPanel } from './error-panel';

/*
 * Dialogs are the platform's <dialog> with showModal(): the browser traps focus, makes the
 * rest of the page inert, closes on Esc and restores focus. Dialog libraries that inject
 * <style> elements would break our Content-Security-Policy (no inline styles).
 */
const panel =
  // m-auto: Tailwind's preflight zeroes every margin, which took away the centring of a modal <dialog>.
  'm-auto max-h-[min(90dvh,48rem)] w-[min(92vw,32rem)] overflow-y-auto rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100';

function useModal(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // Focused without scrolling to it: a dialog taller than the window opens at its top (its title).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
      dialog.scrollTop = 0;
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

/** A confirmation that must be answered: Esc or Cancel cancels, the confirm button has focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
  error = null,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirmed work is under way: a second press must not start it again. */
  busy?: boolean;
  /** Why the confirmed work failed, shown in the dialog so the person can try again or cancel. */
  error?: unknown;
}) {
  const ref = useModal(open);
  const titleId = useId();
  const bodyId = useId();
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className={panel}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <div id={bodyId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            {children}
            {error != null && (
              <span className="mt-2 block">
                <ErrorPanel error={error} />
              </span>
            )}
          </div>
          <div className="mt-5 flex justify-end gap-2">
            <Button onClick={onCancel}>Cancel</Button>
            <Button variant="primary" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined} data-autofocus>
              {confirmLabel}
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}

/** An informational dialog. */
export function InfoDialog({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useModal(open);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={panel}
      onCancel={(event) => {
        event.preventDefault();
        onOpenChange(false);
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <div className="mt-3 text-sm">{children}</div>
          <div className="mt-5 flex justify-end">
            <Button onClick={() => onOpenChange(false)} data-autofocus>
              Close
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}
