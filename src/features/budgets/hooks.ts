import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { usageQuery, type Connection } from '../../data';
import { useBudgetDecisions } from './decisions';
import { forecastCharges, type ChargeForecast } from '../../domain/budgets/forecast';
import { hasLimits, type Budgets } from '../../domain/budgets/model';
import type { SpendInput, SpendReceipt } from '../../domain/budgets/spend';
import { trustedTime } from '../../domain/budgets/trusted-clock';
import { onBudgetsChange, readBudgets } from '../../domain/budgets/store';

// One empty list, so that "no receipts yet" is the same value on every render (memos keyed on it hold).
const NO_RECEIPTS: readonly SpendReceipt[] = [];

/** A scope's budgets from the local store, read again whenever they change here or in another tab. */
function useBudgets(scope: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => onBudgetsChange((changed) => void queryClient.invalidateQueries({ queryKey: ['budgets', changed] })), [queryClient]);
  return useQuery({
    queryKey: ['budgets', scope],
    queryFn: async (): Promise<Budgets & { damaged?: string }> => {
      const { budgets, damaged } = await readBudgets(scope!);
      return damaged ? { ...budgets, damaged } : budgets;
    },
    enabled: scope !== null,
    staleTime: Infinity,
  });
}

/**
 * A connection's budgets and what their spend is computed from: the organization's newest
 * receipts (usage, at most 200; read only when `always` or a limit is set) and every decision
 * this tab knows of (its own, the record, other tabs' unfinished ones).
 */
export function useSpendInput(connection: Connection, always: boolean) {
  const now = useNow();
  const decisions = useBudgetDecisions(connection);
  const budgets = useBudgets(decisions.scope);
  const current = budgets.data;
  const anyLimit = current !== undefined && (Object.keys(current.organization).length > 0 || Object.keys(current.subscriptions).length > 0);
  const usage = useQuery({ ...usageQuery(connection, 200), enabled: always || anyLimit });
  // One array per change of either list, not per render (a bulk run re-renders the header once a frame).
  const all = useMemo(() => [...decisions.entries, ...decisions.others], [decisions.entries, decisions.others]);
  const receipts = usage.data?.data ?? NO_RECEIPTS;
  // Periods in trusted time, as the gate counts them: a clock set back shows today's spend, not an empty day.
  const time = useMemo(() => trustedTime(now, 0, receipts, all), [now, receipts, all]);
  const input: SpendInput = { receipts, decisions: all, now: time.now, tab: decisions.tab };
  return { input, budgets, usage, time, ...decisions };
}

/** The time, moved on every half minute: periods end at midnight whether or not anything else changes. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export type ForecastState = { status: 'checking' } | { status: 'ready'; forecast: ChargeForecast } | { status: 'blocked'; why: string };

/**
 * What the budget gate would do, if sent now, with charged adopts of these prices on a
 * subscription (null: nothing to weigh). Damaged budgets or unreadable receipts make the gate
 * hold everything charged, and the forecast says so.
 */
export function useChargeForecast(connection: Connection, subscriptionId: string, prices: readonly (number | null)[] | null): ForecastState | null {
  const { input, budgets, usage, time } = useSpendInput(connection, false);
  const { receipts, decisions, now, tab } = input;
  const doubt = time.doubt;
  const current = budgets.data;
  return useMemo((): ForecastState | null => {
    if (!prices) return null;
    if (!current) return budgets.isError ? { status: 'blocked', why: 'the budgets could not be read' } : { status: 'checking' };
    if (current.damaged) return { status: 'blocked', why: 'the stored budgets are damaged (save them again on the Budgets page)' };
    if (hasLimits(current, subscriptionId)) {
      if (usage.isError) return { status: 'blocked', why: 'the receipts could not be read to count what is spent' };
      if (!usage.data) return { status: 'checking' };
      if (doubt) return { status: 'blocked', why: 'this device’s clock is far behind the time the service reported, so today cannot be told' };
    }
    return { status: 'ready', forecast: forecastCharges(current, { receipts, decisions, now, tab }, subscriptionId, prices) };
  }, [prices, current, budgets.isError, usage.isError, usage.data, subscriptionId, receipts, decisions, now, tab, doubt]);
}
