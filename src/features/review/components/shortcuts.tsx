import { InfoDialog } from '../../../components/ui/dialogs';
import { KEYMAP } from '../keymap';

// The dialog lists the keymap itself, so it cannot drift from the bindings.
const SHORTCUTS = Object.values(KEYMAP);

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <InfoDialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {SHORTCUTS.map(({ label, description }) => (
          <div key={label} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs dark:border-slate-600">{label}</kbd>
            </dt>
            <dd>{description}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">Shortcuts do nothing while you type in a field.</p>
    </InfoDialog>
  );
}
