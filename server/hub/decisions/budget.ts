import type { LimitRow, SpendRow } from '../store/budgets';

/** What a charged adopt would add to, and the limits it must stay within. */
export interface Charge {
  subscription_id: string | null;
  member_id: string;
  /** The pull-time price; null when the hub never saw the item priced. */
  amount: number | null;
}

const sum = (rows: SpendRow[]) => rows.reduce((t, r) => ({ day: t.day + r.day_micros, month: t.month + r.month_micros }), { day: 0, month: 0 });

/** The limits that apply to a charge: the organization's, its subscription's, and its member's own (else every member's). */
function applicableLimits(limits: LimitRow[], charge: Pick<Charge, 'subscription_id' | 'member_id'>) {
  const find = (scope: LimitRow['scope'], target: string) => limits.find((l) => l.scope === scope && l.target === target);
  return [
    { name: 'organization', limit: find('organization', ''), filter: () => true },
    {
      name: 'subscription',
      limit: charge.subscription_id === null ? undefined : find('subscription', charge.subscription_id),
      filter: (r: SpendRow) => r.subscription_id === charge.subscription_id,
    },
    { name: 'member', limit: find('member', charge.member_id) ?? find('member', '*'), filter: (r: SpendRow) => r.member_id === charge.member_id },
  ].filter((a): a is typeof a & { limit: LimitRow } => a.limit !== undefined && (a.limit.daily_micros !== null || a.limit.monthly_micros !== null));
}

/**
 * The first limit the charge would pass (`organization.daily`, `member.monthly`, …), or null. An
 * adopt of an item the hub never saw priced passes none it can measure: under any limit it is held
 * (`price_unknown`) rather than spent blind. Such an item was delivered through the hub without a
 * price (an adopt of one never delivered is refused first, routes/forward.ts), so these holds are
 * at most one per item the team received.
 */
export function limitPassed(limits: LimitRow[], spend: SpendRow[], charge: Charge): string | null {
  const applicable = applicableLimits(limits, charge);
  if (applicable.length === 0) return null;
  if (charge.amount === null) return 'price_unknown';
  for (const { name, limit, filter } of applicable) {
    const spent = sum(spend.filter(filter));
    if (limit.daily_micros !== null && spent.day + charge.amount > limit.daily_micros) return `${name}.daily`;
    if (limit.monthly_micros !== null && spent.month + charge.amount > limit.monthly_micros) return `${name}.monthly`;
  }
  return null;
}
