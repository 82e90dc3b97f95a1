import { Button } from '../../../components/ui/button';
import { ariaKeys } from '../keymap';

/**
 * What the last action did, said beside the item it was done on, with an Undo that works like Z.
 * `undoHint`: the decisions it announced are still in their undo window. The hint is a text node of
 * its own, so its removal is not read out again (a live region reads additions).
 */
export function LastAction({ announcement, undoHint, canUndo, onUndo }: { announcement: string; undoHint: boolean; canUndo: boolean; onUndo: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      {/* At most a few words wide beside the buttons: a long item title here took the item’s own title column (lg: an auto grid column). */}
      <p role="status" aria-live="polite" className="min-w-0 [overflow-wrap:anywhere] lg:max-w-72">
        {announcement}
        {undoHint && ' Press Z to undo.'}
      </p>
      {canUndo && (
        <Button size="sm" onClick={onUndo} aria-keyshortcuts={ariaKeys('undo')}>
          Undo
        </Button>
      )}
    </div>
  );
}
