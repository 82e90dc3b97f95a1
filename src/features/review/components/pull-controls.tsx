import { useNavigate } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { Panel } from '../../../components/ui/panel';
import { Total } from '../../../components/ui/total';
import { saveSettings, GRACE_MAX_S, GRACE_MIN_S } from '../../../domain/outbox/settings';
import { useId } from 'react';
import { pageSizeError, type ReviewSearch } from '../search';
import { RereadFilters } from './reread-filters';
import type { ReviewSource } from './use-review-source';
import { ariaKeys } from '../keymap';
import type { ReviewItem } from '../model';
import { useOtherTabsEntries, useOutboxEntries } from '../../../data';
import { useVisitSpend } from './use-visit-spend';

interface Props {
  search: ReviewSearch;
  isLive: boolean;
  source: ReviewSource;
  /** Pull and Next page, refused while the page size is invalid. */
  onPull: () => void;
  onPullNext: () => void;
  /** The page size as typed (kept until corrected), and what is wrong with it. */
  sizeText: string;
  sizeError: string | null;
  onSizeText: (text: string | null) => void;
  itemCount: number;
  pageTotal: number;
  /** The connection and the items listed, for what this visit spent. */
  connectionId: string;
  items: readonly ReviewItem[];
  graceSeconds: number;
  onGraceSeconds: (seconds: number) => void;
}

/**
 * What this visit spent. It follows the decisions once a keypress has painted (its sums run over
 * every decision), and only this line renders again then.
 */
function VisitSpendLine({ connectionId, items }: { connectionId: string; items: readonly ReviewItem[] }) {
  const { spent, onTheirWay } = useVisitSpend(useOutboxEntries(connectionId, 'after-paint'), useOtherTabsEntries(connectionId, 'after-paint'), items);
  return (
    <span>
      Spent this visit{' '}
      <strong>
        <Total micros={spent} />
      </strong>
      {onTheirWay > 0 && (
        <>
          {' '}
          · <Total micros={onTheirWay} /> on its way
        </>
      )}
    </span>
  );
}

/** Mode, page size, filters, Pull and paging, the undo window, and what the page and the visit cost. */
export function PullControls(props: Props) {
  const {
    search,
    isLive,
    source,
    onPull,
    onPullNext,
    sizeText,
    sizeError,
    onSizeText,
    itemCount,
    pageTotal,
    connectionId,
    items,
    graceSeconds,
    onGraceSeconds,
  } = props;
  const navigate = useNavigate({ from: '/review/$subscriptionId' });
  const sizeErrorId = useId();
  // Kept: written. A pull's items are listed while their write runs, and counted here once it committed.
  const kept = source.stored.items.length - source.stored.unwritten;
  // A valid size goes to the URL (the workspace drops the draft once the URL has it); an invalid one
  // stays in the field with its message.
  const applySize = (text: string) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    if (pageSizeError(value) || value !== search.limit) onSizeText(text);
    else onSizeText(null);
    if (!pageSizeError(value) && value !== search.limit) void navigate({ search: (prev) => ({ ...prev, limit: value, cursor: undefined }) });
  };
  return (
    // One compact row on wide screens: what the controls mean is in the header's "About this page".
    <Panel aria-label="Pull controls" className="flex flex-wrap items-center gap-x-2 gap-y-1.5 px-3! py-1.5!">
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
      <div className="flex flex-col text-sm">
        <label className="flex items-center gap-2">
          <span className="font-medium">Page size</span>
          <input
            type="number"
            min={LIMITS.livePull.min}
            max={LIMITS.livePull.max}
            step={1}
            className={`${inputClass} w-20 py-1!`}
            value={sizeText}
            aria-invalid={sizeError ? true : undefined}
            aria-describedby={sizeErrorId}
            onChange={(e) => onSizeText(e.target.value)}
            onBlur={(e) => applySize(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') applySize(e.currentTarget.value);
            }}
          />
        </label>
        {/* The range is read with the field (and written in the help); only a mistake takes room on screen. */}
        <span id={sizeErrorId} className={sizeError ? 'font-medium text-red-700 dark:text-red-300' : 'sr-only'}>
          {sizeError ?? `${LIMITS.livePull.min}–${LIMITS.livePull.max} items`}
        </span>
      </div>
      {isLive && search.mode === 'reread' && <RereadFilters search={search} />}
      {source.refusal ? (
        <p className="max-w-xl text-sm text-slate-600 dark:text-slate-400">{source.refusal}</p>
      ) : (
        <Button size="sm" variant="primary" onClick={onPull} disabled={source.loading || sizeError !== null}>
          Pull
        </Button>
      )}
      {source.mode === 'new' && !source.refusal && (
        <>
          <Button size="sm" onClick={source.pullAll} disabled={source.loading || source.task !== null || sizeError !== null}>
            Pull all new
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={source.recover}
            disabled={source.task !== null}
            title="Re-read from the beginning and keep every item never received"
          >
            Recover missing items
          </Button>
        </>
      )}
      {source.mode === 'reread' && search.cursor && (
        <Button size="sm" onClick={() => void navigate({ search: (prev) => ({ ...prev, cursor: undefined }) })}>
          First page
        </Button>
      )}
      {source.mode === 'reread' && (
        <Button size="sm" onClick={onPullNext} disabled={!source.nextCursor || sizeError !== null} aria-keyshortcuts={ariaKeys('pullNext')}>
          Next page
        </Button>
      )}
      <label className="flex items-center gap-2 text-sm">
        <span className="font-medium">Undo window (s)</span>
        <input
          type="number"
          min={GRACE_MIN_S}
          max={GRACE_MAX_S}
          className={`${inputClass} w-20 py-1!`}
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
      {/* It takes the room left in the controls' row and wraps within it (two lines fit the row's
          height), so a figure that appears (what is on its way) never moves the row below. */}
      <div className="ml-auto flex min-w-48 grow basis-0 flex-wrap justify-end gap-x-3 text-xs leading-3.75" aria-live="polite">
        {source.mode === 'pending' && itemCount > 0 && (
          <span>
            Page total{' '}
            <strong>
              <Total micros={pageTotal} />
            </strong>{' '}
            for {itemCount} items
          </span>
        )}
        {!isLive && <VisitSpendLine connectionId={connectionId} items={items} />}
        {source.mode !== 'reread' && (
          <span>
            {kept.toLocaleString()} item{kept === 1 ? '' : 's'} kept on this device
            {source.mode === 'new' && source.hasMore === false ? ' · up to date' : ''}
          </span>
        )}
      </div>
    </Panel>
  );
}
