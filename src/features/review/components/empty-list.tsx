import { Panel } from '../../../components/ui/panel';
import type { ReviewSearch } from '../search';
import type { ReviewSource } from './use-review-source';

/**
 * Why no item is listed yet, and what to do about it. `batchless`: the review walks a batch from the
 * team's queue and holds none, so the items kept here are not listed until one is taken.
 */
export function EmptyList({ source, search, batchless = false }: { source: ReviewSource; search: ReviewSearch; batchless?: boolean }) {
  return (
    <Panel>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {source.loading
          ? 'Pulling…'
          : batchless
            ? 'Take a batch (B) to review items of the team’s queue, or Pull (N) to bring new ones in.'
            : source.mode !== 'reread' && !source.stored.complete
              ? 'Reading the items kept on this device…'
              : source.hasMore === false || (source.mode === 'pending' && search.run)
                ? 'Nothing to review here.'
                : source.refusal
                  ? 'Nothing pulled by the team yet: reviewers and admins pull new items, and they show here as they arrive.'
                  : 'Press Pull (or N) to fetch a page.'}
      </p>
    </Panel>
  );
}
