import { InfoDialog } from '../../../components/ui/dialogs';

const SHORTCUTS: readonly [string, string][] = [
  ['j / ↓', 'next item'],
  ['k / ↑', 'previous item'],
  ['Home / End', 'first / last item of the page'],
  ['a', 'adopt the focused item'],
  ['d', 'dispute (live items ask for a reason: Enter confirms, Esc cancels)'],
  ['z / Ctrl+Z / ⌘Z', 'undo the last decision still in its undo window'],
  ['x', 'select or unselect the focused item'],
  ['Shift+A / Shift+D', 'adopt / dispute the selection'],
  ['n', 'pull the next page'],
  ['?', 'show these shortcuts'],
];

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <InfoDialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={keys} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs dark:border-slate-600">{keys}</kbd>
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">Shortcuts do nothing while you type in a field.</p>
    </InfoDialog>
  );
}
