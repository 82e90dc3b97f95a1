import { z } from '../../api/contract/zod';

/**
 * Budgets: limits on what charged decisions (simulated adopts) may spend, per organization on a
 * base URL (the connection's scope) and per simulated subscription. Each limit is optional and an
 * integer number of micro-USD; kept in the local store's `settings` under BUDGETS_SETTING, so
 * every tab and every key of the organization sees the same limits.
 */
export const PERIODS = ['daily', 'monthly', 'visit'] as const;
export type Period = (typeof PERIODS)[number];
export type Level = 'organization' | 'subscription';

const micros = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
// Strict: an unknown key ("Daily") is damage, never a limit left out (read as "no limit").
const limitsSchema = z.strictObject({ daily: micros.optional(), monthly: micros.optional(), visit: micros.optional() });
export type Limits = z.infer<typeof limitsSchema>;

const budgetsSchema = z.strictObject({
  organization: limitsSchema,
  subscriptions: z.record(z.string(), limitsSchema),
});
export type Budgets = z.infer<typeof budgetsSchema>;

export const NO_BUDGETS: Budgets = { organization: {}, subscriptions: {} };

/** A stored document, checked (a damaged one is never a made-up limit), with what is wrong in words ("organization: Unrecognized key: "Daily"") when it is damaged. */
export function parseBudgetsStrictly(value: unknown): { success: true; budgets: Budgets } | { success: false; why: string } {
  const parsed = budgetsSchema.safeParse(value);
  if (parsed.success) return { success: true, budgets: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  return { success: false, why: `${where}${issue?.message ?? 'not the budgets’ shape'}` };
}

/** Whether a document sets any limit at all. */
export const setsAnyLimit = (budgets: Budgets) => anyLimit(budgets.organization) || Object.values(budgets.subscriptions).some(anyLimit);

const anyLimit = (limits: Limits | undefined) => limits !== undefined && PERIODS.some((p) => limits[p] !== undefined);

/** Whether any limit applies to a charged decision on this subscription (none: it skips the gate). */
export function hasLimits(budgets: Budgets | null, subscriptionId: string): boolean {
  if (!budgets) return false;
  return anyLimit(budgets.organization) || anyLimit(budgets.subscriptions[subscriptionId]);
}

/** One limit: which level, which subscription (at that level), which period. */
export interface LimitRef {
  level: Level;
  subscriptionId?: string;
  period: Period;
  limitMicros: number;
}

/** The limits that apply to a decision on `subscriptionId`: the organization's, then the subscription's. */
export function limitsFor(budgets: Budgets, subscriptionId: string): LimitRef[] {
  const refs: LimitRef[] = [];
  for (const period of PERIODS) {
    const limit = budgets.organization[period];
    if (limit !== undefined) refs.push({ level: 'organization', period, limitMicros: limit });
  }
  const own = budgets.subscriptions[subscriptionId];
  for (const period of PERIODS) {
    const limit = own?.[period];
    if (limit !== undefined) refs.push({ level: 'subscription', subscriptionId, period, limitMicros: limit });
  }
  return refs;
}

/** Sets or clears one limit (undefined clears it); a subscription left with none is dropped. */
export function withLimit(budgets: Budgets, level: Level, subscriptionId: string | undefined, period: Period, limitMicros: number | undefined): Budgets {
  const change = (limits: Limits): Limits => {
    const next: Limits = { ...limits };
    if (limitMicros === undefined) delete next[period];
    else next[period] = limitMicros;
    return next;
  };
  if (level === 'organization') return { ...budgets, organization: change(budgets.organization) };
  const subscriptions = { ...budgets.subscriptions, [subscriptionId!]: change(budgets.subscriptions[subscriptionId!] ?? {}) };
  if (!anyLimit(subscriptions[subscriptionId!])) delete subscriptions[subscriptionId!];
  return { ...budgets, subscriptions };
}

export const PERIOD_LABELS: Record<Period, string> = { daily: 'Daily', monthly: 'Monthly', visit: 'Per visit' };
/** Where the period's spend is counted from, as the page says it. */
export const PERIOD_SPAN: Record<Period, string> = { daily: 'today (your time)', monthly: 'this month (your time)', visit: 'this visit (this tab)' };
