import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Total } from '../../../components/ui/total';
import { formatMicros } from '../../../lib/money';
import { connectionSubscriptionName, useActiveConnection, type Connection } from '../../../data';
import { useSpendInput } from '../hooks';
import { PERIOD_LABELS, PERIOD_SPAN } from '../../../domain/budgets/model';
import { spentAgainst } from '../../../domain/budgets/spend';
import { crossedThresholds, type Crossed } from '../../../domain/budgets/thresholds';

const NOTICES_KEY = 'dds.budget-notices';

/** The thresholds already told, kept on this device so a reload does not tell them again. */
function toldBefore(): Set<string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(NOTICES_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}
function remember(keys: readonly string[]): void {
  try {
    // The newest few hundred are enough: older periods are over.
    localStorage.setItem(NOTICES_KEY, JSON.stringify([...toldBefore(), ...keys].slice(-300)));
  } catch {
    /* storage unavailable: told again after a reload */
  }
}

/** What a reached threshold says: the subscription by its name, as Budgets heads its limits (two of one label told apart by ID). */
export const noticeText = (c: Crossed, connection: Pick<Connection, 'subscriptions'>) =>
  `Budget: ${c.percent}% of the ${c.ref.level === 'organization' ? 'organization' : connectionSubscriptionName(connection)(c.ref.subscriptionId ?? '')} ${PERIOD_LABELS[c.ref.period].toLowerCase()} limit reached — ${formatMicros(c.spentMicros)} of ${formatMicros(c.ref.limitMicros)} ${PERIOD_SPAN[c.ref.period]}.${c.percent === 100 ? ' Further charged adopts are held.' : ''}`;

/**
 * The header's budget line: today's spend against the organization's daily limit (only when one is
 * set), and a notice each time a limit's spend reaches 50%, 80% and 100%, once per threshold per
 * period. Loaded lazily with the connection: the budgets are read from the local store on demand.
 */
export function BudgetHeader() {
  const connection = useActiveConnection();
  if (!connection) return null;
  return <BudgetHeaderOf connection={connection} />;
}

function BudgetHeaderOf({ connection }: { connection: NonNullable<ReturnType<typeof useActiveConnection>> }) {
  // The spend input follows the decisions once a keypress has painted (useBudgetDecisions): its sums
  // over every decision are not on the way to the next item.
  const { input: now, scope, budgets } = useSpendInput(connection, false);
  const { receipts, decisions, tab } = now;
  const input = useMemo(() => ({ receipts, decisions, now: now.now, tab }), [receipts, decisions, now.now, tab]);
  const current = budgets.data;
  // Thresholds told before this page load are not told again; those reached since are shown until dismissed.
  const [told] = useState(toldBefore);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const crossed = useMemo(
    () => (current && scope ? crossedThresholds(current, input, Object.keys(current.subscriptions), scope) : []),
    [current, input, scope],
  );
  const fresh = crossed.filter((c) => !told.has(c.key));
  const freshKeys = fresh.map((c) => c.key).join('\n');
  useEffect(() => {
    if (freshKeys) remember(freshKeys.split('\n'));
  }, [freshKeys]);
  const shown = fresh.filter((c) => !dismissed.has(c.key));
  const notice = shown.length ? shown.reduce((a, b) => (b.percent > a.percent ? b : a)) : null;

  const daily = current?.organization.daily;
  const spentToday = useMemo(() => (daily === undefined ? 0 : spentAgainst({ level: 'organization', period: 'daily' }, input)), [daily, input]);
  return (
    <>
      {daily !== undefined && (
        // Named by its text, so each total's exact amount (the hover, and visually hidden text when the
        // cents are rounded) reaches a screen reader too; the limit is in the name at every width.
        <Link
          to="/budgets"
          className="flex items-center gap-1.5 rounded px-1.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <meter
            aria-hidden="true"
            min={0}
            max={Math.max(daily, 1)}
            value={Math.min(spentToday, Math.max(daily, 1))}
            high={daily * 0.8}
            optimum={0}
            className="h-2 w-10 sm:w-16"
          />
          <span className="font-mono whitespace-nowrap">
            <span className="sr-only">Budget: </span>
            <Total micros={spentToday} />
            <span className="sr-only"> of </span>
            <span aria-hidden="true" className="hidden sm:inline">
              {' '}
              /{' '}
            </span>
            <span className="sr-only sm:not-sr-only">
              <Total micros={daily} />
            </span>
            <span className="sr-only"> daily limit spent</span>
            {/* not-sr-only sets white-space: normal: a no-break space keeps "today" on the line */}
            <span className="sr-only sm:not-sr-only">{'\u00a0'}today</span>
          </span>
        </Link>
      )}
      {notice && (
        <div
          role="status"
          className="fixed right-4 bottom-4 left-4 z-40 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 shadow-lg sm:left-auto sm:max-w-md dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
        >
          <span>{noticeText(notice, connection)}</span>
          <Button size="sm" variant="ghost" onClick={() => setDismissed(new Set([...dismissed, ...shown.map((c) => c.key)]))}>
            Dismiss
          </Button>
        </div>
      )}
    </>
  );
}
