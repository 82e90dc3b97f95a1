import { useState } from 'react';
import { cx } from '../../lib/cx';

/**
 * An ID a person rarely reads but sometimes needs: its short form on screen, the whole ID on hover,
 * and a button that copies it. The button says what it copies and, for a moment, that it did.
 */
export function CopyId({ id, label, short, className }: { id: string; label: string; short: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(id).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => undefined,
    );
  };
  return (
    <span className={cx('inline-flex items-center gap-1', className)}>
      <code title={id} className="font-mono text-xs">
        {short}
      </code>
      <button
        type="button"
        onClick={copy}
        aria-label={`Copy ${label} ${id}`}
        className="rounded px-1 text-xs text-brand-700 underline hover:bg-slate-100 dark:text-brand-100 dark:hover:bg-slate-800"
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
