import { Button } from '../../../components/ui/button';
import { ariaKeys } from '../keymap';

/**
 * What the last action did, said beside the item it was done on, with an Undo that works like Z.
 * `undoHint`: the decisions it announced are still in their undo window. The hint is a text node of
 * its own, so its removal is not read out again (a live region reads additions).
 */
export function LastAction({ announcement, undoHint, canUndo, onUndo }: { announcement: string; undoHint: boolean; canUndo: boolean; onUndo: () => void }) {
  const hint = undoHint ? ' Press Z to undo.' : '';
  return (
    // Wide screens: a line of its own under the buttons, one line high whether or not anything was
    // said, and as wide as the buttons make the column (w-0 min-w-full: its text widens nothing), so
    // a decision neither squeezes the title nor shrinks the image below it. What was done is cut
    // there (the item's name, mostly), the hint never: the whole sentence is read out, and shown on
    // hover (on the row, not the live region, whose name it would become).
    <div
      className="flex flex-wrap items-center gap-2 text-sm lg:h-6 lg:w-0 lg:min-w-full lg:flex-nowrap"
      title={announcement ? announcement + hint : undefined}
    >
      <p role="status" aria-live="polite" className="min-w-0 [overflow-wrap:anywhere] lg:flex lg:whitespace-pre">
        <span className="lg:truncate">{announcement}</span>
        {hint && <span className="lg:shrink-0">{hint}</span>}
      </p>
      {canUndo && (
        <Button size="sm" className="shrink-0 lg:h-6 lg:py-0" onClick={onUndo} aria-keyshortcuts={ariaKeys('undo')}>
          Undo
        </Button>
      )}
    </div>
  );
}
