import { Link } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import type { ConnectionSubscription } from '../../../data';
import type { ReviewSource } from './use-review-source';
import { ariaKeys } from '../keymap';

/** The workspace's title, what its mode does, and the way to the shortcuts. */
export function WorkspaceHeader({ subscription, mode, onHelp }: { subscription: ConnectionSubscription; mode: ReviewSource['mode']; onHelp: () => void }) {
  const name = subscription.label ?? subscription.id;
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
      <div className="min-w-0">
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link to="/review" className="text-brand-600 underline dark:text-brand-100">
            Review
          </Link>{' '}
          / {name}
        </nav>
        <h1 className="text-xl font-semibold text-slate-900 dark:text-slate-50">Review {name}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {mode === 'new'
            ? 'New items: each Pull moves this subscription forward; every item pulled is kept on this device, undecided first.'
            : mode === 'reread'
              ? 'Re-read: pages through everything from the beginning without moving the subscription.'
              : 'Pending simulated items, kept on this device once pulled. Adopting charges the item’s price; disputing charges nothing.'}
        </p>
      </div>
      <Button variant="ghost" onClick={onHelp} aria-keyshortcuts={ariaKeys('help')}>
        Keyboard shortcuts
      </Button>
    </div>
  );
}
