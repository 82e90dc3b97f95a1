import { useNavigate } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Panel } from '../../../components/ui/panel';
import { formatMicros } from '../../../lib/money';
import { saveSettings, GRACE_MAX_S, GRACE_MIN_S } from '../../outbox';
import type { ReviewSearch } from '../search';
import { RereadFilters } from './reread-filters';
import type { ReviewSource } from './use-review-source';

interface Props {
  search: ReviewSearch;
  isLive: boolean;
  source: ReviewSource;
  itemCount: number;
  pageTotal: number;
  spent: number;
  onTheirWay: number;
  graceSeconds: number;
  onGraceSeconds: (seconds: number) => void;
}

/** Mode, page size, filters, Pull and paging, the undo window, and what the page and the visit cost. */
export function PullControls({ search, isLive, source, itemCount, pageTotal, spent, onTheirWay, graceSeconds, onGraceSeconds }: Props) {
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  return (
    <Panel aria-label="Pull controls" className="flex flex-wrap items-end gap-3">
      {isLive && (
        <div role="group" aria-label="Mode" className="flex gap-1">
          {(['new', 'reread'] as const).map((mode) => (
            <Button
              key={mode}
              size="sm"
              variant={search.mode === mode ? 'secondary' : 'ghost'}
              aria-pressed={search.mode === mode}
              onClick={() => void navigate({ search: (prev) => ({ ...prev, mode, run: undefined, cursor: undefined }) })}
            >
              {mode === 'new' ? 'New items' : 'Re-read'}
            </Button>
          ))}
        </div>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Page size</span>
        <input
          type="number"
          min={LIMITS.livePull.min}
          max={LIMITS.livePull.max}
          className={`${inputClass} w-24`}
          defaultValue={search.limit}
          key={search.limit}
          onBlur={(e) => {
            const value = Number(e.target.value);
            if (Number.isInteger(value) && value >= 1 && value <= 200) void navigate({ search: (prev) => ({ ...prev, limit: value, cursor: undefined }) });
            else e.target.value = String(search.limit);
          }}
        />
      </label>
      {isLive && search.mode === 'reread' && <RereadFilters search={search} />}
      <Button variant="primary" onClick={source.pull} disabled={source.loading}>
        Pull
      </Button>
      {source.mode === 'reread' && search.cursor && (
        <Button onClick={() => void navigate({ search: (prev) => ({ ...prev, cursor: undefined }) })}>First page</Button>
      )}
      {source.mode === 'reread' && (
        <Button onClick={source.pullNext} disabled={!source.nextCursor} aria-keyshortcuts="n">
          Next page
        </Button>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Undo window (s)</span>
        <input
          type="number"
          min={GRACE_MIN_S}
          max={GRACE_MAX_S}
          className={`${inputClass} w-20`}
          value={graceSeconds}
          onChange={(e) => {
            const value = Math.round(Number(e.target.value));
            if (Number.isFinite(value) && value >= GRACE_MIN_S && value <= GRACE_MAX_S) {
              onGraceSeconds(value);
              saveSettings({ graceSeconds: value });
            }
          }}
        />
      </label>
      <div className="ml-auto flex flex-col items-end text-sm" aria-live="polite">
        {source.mode === 'pending' && itemCount > 0 && (
          <span>
            Page total <strong className="font-mono">{formatMicros(pageTotal)}</strong> for {itemCount} items
          </span>
        )}
        {!isLive && (
          <span>
            Spent this visit <strong className="font-mono">{formatMicros(spent)}</strong>
            {onTheirWay > 0 && <> · {formatMicros(onTheirWay)} on its way</>}
          </span>
        )}
        {source.mode === 'new' && source.session.pulls > 0 && (
          <span>
            {source.session.items.length.toLocaleString()} items from {source.session.pulls.toLocaleString()} pull{source.session.pulls === 1 ? '' : 's'}
            {source.session.hasMore === false ? ' · up to date' : ''}
          </span>
        )}
      </div>
    </Panel>
  );
}
