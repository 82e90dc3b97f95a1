import { Button } from '../../../components/ui/button';
import { ariaKeys } from '../keymap';

/** Under the list: how far the page is decided, what is selected, and the bulk decisions. */
export function SelectionBar({
  decided,
  total,
  selected,
  focusedSelected,
  onAdopt,
  onDispute,
  onToggle,
}: {
  decided: number;
  total: number;
  selected: number;
  /** Whether the focused item is selected (the toggle then unselects it). */
  focusedSelected: boolean;
  onAdopt: () => void;
  onDispute: () => void;
  onToggle: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        {decided.toLocaleString()} of {total.toLocaleString()} decided
      </span>
      <span aria-hidden="true">·</span>
      <span>{selected} selected</span>
      <Button size="sm" onClick={onAdopt} disabled={selected === 0} aria-keyshortcuts={ariaKeys('adoptSelection')}>
        Adopt selected
      </Button>
      <Button size="sm" onClick={onDispute} disabled={selected === 0} aria-keyshortcuts={ariaKeys('disputeSelection')}>
        Dispute selected
      </Button>
      <Button size="sm" variant="ghost" onClick={onToggle} aria-keyshortcuts={ariaKeys('toggleSelect')}>
        {focusedSelected ? 'Unselect' : 'Select'}
      </Button>
    </div>
  );
}
