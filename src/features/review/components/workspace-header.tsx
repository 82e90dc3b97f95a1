import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { LIMITS } from '../../../api/contract';
import type { ConnectionSubscription } from '../../../data';
import type { ReviewSource } from './use-review-source';
import { ariaKeys } from '../keymap';

const MODE_HELP: Record<ReviewSource['mode'], string> = {
  new: 'New items: each Pull moves this subscription forward; every item pulled is kept on this device, undecided first.',
  reread: 'Re-read: pages through everything from the beginning without moving the subscription.',
  pending: 'Pending simulated items, kept on this device once pulled. Adopting charges the item’s price; disputing charges nothing.',
};

interface Props {
  subscription: ConnectionSubscription;
  mode: ReviewSource['mode'];
  onHelp: () => void;
  /** Whether the list is collapsed, and the ID of what the list button shows or hides. */
  listCollapsed: boolean;
  listId: string;
  onToggleList: () => void;
  onFocusMode: () => void;
}

/**
 * The workspace's one-line title: where the reviewer is, and the layout's switches. What the mode
 * does is help on demand (it took a paragraph above the item), laid over the page, not pushing it.
 */
export function WorkspaceHeader({ subscription, mode, onHelp, listCollapsed, listId, onToggleList, onFocusMode }: Props) {
  const name = subscription.label ?? subscription.id;
  const [aboutOpen, setAboutOpen] = useState(false);
  const aboutId = useId();
  return (
    <div
      className="relative flex flex-wrap items-center gap-x-2 gap-y-1"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && aboutOpen) {
          event.stopPropagation();
          setAboutOpen(false);
        }
      }}
    >
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/review" className="text-brand-600 underline dark:text-brand-100">
          Review
        </Link>{' '}
        /
      </nav>
      <h1 className="min-w-0 text-lg leading-tight font-semibold [overflow-wrap:anywhere] text-slate-900 dark:text-slate-50">Review {name}</h1>
      <Button size="sm" variant="ghost" aria-expanded={aboutOpen} aria-controls={aboutId} onClick={() => setAboutOpen((open) => !open)}>
        <span aria-hidden="true" className="inline-grid size-5 place-items-center rounded-full border border-current text-xs">
          ?
        </span>
        About this page
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-1">
        <Button size="sm" variant="ghost" aria-expanded={!listCollapsed} aria-controls={listId} onClick={onToggleList}>
          {listCollapsed ? 'Show list' : 'Hide list'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onFocusMode} aria-keyshortcuts={ariaKeys('focusMode')}>
          Focus mode
        </Button>
        <Button size="sm" variant="ghost" onClick={onHelp} aria-keyshortcuts={ariaKeys('help')}>
          Keyboard shortcuts
        </Button>
      </div>
      {aboutOpen && (
        <div
          id={aboutId}
          role="note"
          aria-label="About this page"
          className="absolute top-full left-0 z-20 mt-1 flex w-max max-w-[min(36rem,calc(100vw-2rem))] flex-col gap-1 rounded-md border border-slate-200 bg-white p-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <p>{MODE_HELP[mode]}</p>
          <p>
            Page size: {LIMITS.livePull.min}–{LIMITS.livePull.max} items a pull. Undo window: how many seconds a decision waits on this device before it is
            sent; until then z undoes it.
          </p>
          <p>Hide list gives the item the whole width; Focus mode (f) shows only the item card. Press ? for every shortcut.</p>
          <Button size="sm" className="self-end" onClick={() => setAboutOpen(false)}>
            Close
          </Button>
        </div>
      )}
    </div>
  );
}
