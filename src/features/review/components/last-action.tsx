import { Button } from '../../../components/ui/button';
import { ariaKeys } from '../keymap';

/** What the last action did, said beside the item it was done on, with an Undo that works like Z. */
export function LastAction({ announcement, canUndo, onUndo }: { announcement: string; canUndo: boolean; onUndo: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <p role="status" aria-live="polite" className="min-w-0 [overflow-wrap:anywhere]">
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
