import { useState } from 'react';
import { Button } from './button';

/**
 * Metadata comes from the service and may be megabytes long: a 5 MB quality grade, laid out in a
 * list row and the item's header, froze the review for seconds. Rows and headers show a cut;
 * the whole text only on request. Cutting is a slice: nothing measures the full string.
 */
export const SHOWN_CHARACTERS = 300;

export const cut = (text: string, max = SHOWN_CHARACTERS): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A value shown cut, with a toggle that shows all of it. */
export function LongText({ text, max = SHOWN_CHARACTERS }: { text: string; max?: number }) {
  const [all, setAll] = useState(false);
  if (text.length <= max) return text;
  return (
    <>
      {all ? text : cut(text, max)}{' '}
      <Button size="sm" variant="ghost" aria-expanded={all} onClick={() => setAll((a) => !a)} className="py-0">
        {all ? 'Show less' : `Show all (${text.length.toLocaleString('en-US')} characters)`}
      </Button>
    </>
  );
}
