import { InfoDialog } from '../../../components/ui/dialogs';
import { KEYMAP, type KeyBinding } from '../keymap';

// The dialog lists the keymap itself, so it cannot drift from the bindings.
const SECTIONS: { title: string; bindings: KeyBinding[] }[] = [
  { title: 'Review', bindings: Object.values(KEYMAP).filter((b) => b.scope === 'review') },
  { title: 'Focused item’s content (image viewer, tree and raw views)', bindings: Object.values(KEYMAP).filter((b) => b.scope === 'viewer') },
  { title: 'Dispute dialog (focus on the reason codes, not in its text)', bindings: Object.values(KEYMAP).filter((b) => b.scope === 'dispute') },
];

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <InfoDialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      {SECTIONS.map(({ title, bindings }) => (
        <section key={title} className="mb-3">
          <h3 className="mb-1 text-sm font-semibold">{title}</h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            {bindings.map(({ label, description }) => (
              <div key={label} className="contents">
                <dt>
                  <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs dark:border-slate-600">{label}</kbd>
                </dt>
                <dd>{description}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p className="text-xs text-slate-600 dark:text-slate-400">Shortcuts do nothing while you type in a field.</p>
    </InfoDialog>
  );
}
