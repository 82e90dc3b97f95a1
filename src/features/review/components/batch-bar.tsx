import { ApiError } from '../../../api/errors';
import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Badge } from '../../../components/ui/panel';
import { ariaKeys } from '../keymap';
import type { TeamBatchState } from './use-team-batch';

/** The hub's 409 when the member already holds the most one member may of the subscription (server/hub/store/leases.ts). */
const handFull = (error: unknown) => error instanceof ApiError && error.code === 'LEASE_CAP_REACHED';

const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * One line above the review in hub mode: "Batch · 12 left · yours until 14:05", Release, and the
 * next batch once this one is done (one line, so the review still fits 1280×720).
 */
export function BatchBar({ state, left, lost }: { state: TeamBatchState; left: number; lost: number }) {
  const { batch, refusal, busy, error, empty, offline } = state;
  const full = handFull(error);
  const takeButton = (label: string) => (
    <Button size="sm" variant="primary" disabled={busy || refusal !== null} onClick={state.take} aria-keyshortcuts={ariaKeys('nextBatch')}>
      {label}
    </Button>
  );
  return (
    <div className="flex flex-col gap-1">
      <div
        role="status"
        aria-label="Your batch"
        className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-brand-100 bg-brand-100/40 px-3 py-1.5 text-sm dark:border-brand-700 dark:bg-brand-700/20"
      >
        {batch === undefined ? (
          <span>Reading your batch…</span>
        ) : batch === null ? (
          <>
            <span>
              {refusal ??
                (busy
                  ? 'Taking a batch from the team’s queue…'
                  : full
                    ? 'No batch taken: you already hold the most undecided items of this subscription one reviewer may (batches in other tabs or on the Queue page). Decide or release some of them, then take again.'
                    : empty
                      ? 'Nothing free to take: no undecided item of the team’s queue is free under these filters. Pull brings new items in.'
                      : 'No batch.')}
            </span>
            {takeButton(empty ? 'Try again' : 'Take a batch')}
          </>
        ) : (
          <>
            <span>
              Batch · <strong className="tabular-nums">{left}</strong> left · yours until <time dateTime={batch.expiresAt}>{clock(batch.expiresAt)}</time>
            </span>
            {batch.hold && batch.hold.held >= batch.hold.limit && (
              <Badge tone="neutral">you hold {batch.hold.limit} items, the most one reviewer may: this batch is what was left under it</Badge>
            )}
            {lost > 0 && (
              <Badge tone="warn">
                lease lost on {lost} {lost === 1 ? 'item' : 'items'}: taken back or expired
              </Badge>
            )}
            {offline && <Badge tone="neutral">offline: decisions wait on this device</Badge>}
            {left === 0 ? takeButton('Next batch') : null}
            <Button size="sm" variant="ghost" disabled={busy} onClick={state.release}>
              Release
            </Button>
          </>
        )}
      </div>
      {error !== null && !full && <ErrorPanel error={error} />}
    </div>
  );
}
