import { Panel } from '../../../components/ui/panel';
import type { ReviewSearch } from '../search';
import type { ReviewSource } from './use-review-source';

/** Why no item is listed yet, and what to do about it. */
export function EmptyList({ source, search }: { source: ReviewSource; search: ReviewSearch }) {
  return (
    <Panel>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {source.loading
          ? 'Pulling…'
          : source.mode !== 'reread' && !source.stored.complete
            ? 'Reading the items kept on this device…'
            : source.hasMore === false || (source.mode === 'pending' && search.run)
              ? 'Nothing to review here.'
              : 'Press Pull (or N) to fetch a page.'}
      </p>
    </Panel>
  );
}
