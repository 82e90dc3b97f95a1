import { useState } from 'react';
import { Button } from '../ui/button';
import { maskKey } from '../../lib/redact';

/** A key shown masked (prefix and last 4) until the user clicks Reveal. */
export function SecretText({ value, label }: { value: string; label: string }) {
  const [revealed, setRevealed] = useState(false);
  return (
    <span className="inline-flex items-center gap-2">
      <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all dark:bg-slate-800" aria-label={label}>
        {revealed ? value : maskKey(value)}
      </code>
      <Button size="sm" variant="ghost" aria-pressed={revealed} onClick={() => setRevealed((r) => !r)}>
        {revealed ? 'Hide' : 'Reveal'}
      </Button>
    </span>
  );
}
