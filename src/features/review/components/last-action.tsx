import { Button } from '../../../components/ui/button';
import { ariaKeys } from '../keymap';

/** What the last action did, said beside the item it was done on, with an Undo that works like Z. */
export function LastAction({ announcement, canUndo, onUndo }: { announcement: string; canUndo: boolean; onUndo: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      {/* At most a few words wide beside the buttons: a long item title here took the item’s own title column (lg: an auto grid column). */}
      <p role="status" aria-live="polite" className="min-w-0 [overflow-wrap:anywhere] lg:max-w-72">
        {announcement}
      </p>
      {canUndo && (
        <Button size="sm" onClick={onUndo} aria-keyshortcuts={ariaKeys('undo')}>
          Undo
        </Button>
      )}
    </div>
  );
}
