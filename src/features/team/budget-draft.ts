import { HUB_LIMIT_MAX_MICROS, type HubBudgets, type HubBudgetsInput, type HubLimit } from '../../api/contract/hub-budgets';
import { parseMoneyText } from '../../domain/budgets/money-text';
import { formatMicros, microsToDecimal } from '../../lib/money';

/*
 * The budgets page's form: each limit as the decimal text the admin types (blank: no limit), read
 * back exactly into integer micro-USD. Every field that cannot be read is named and nothing is sent.
 */

export type Scope = 'organization' | 'per_member' | `subscription:${string}` | `member:${string}`;
export type Period = 'daily' | 'monthly';
export const PERIODS: readonly Period[] = ['daily', 'monthly'];

export type Draft = Record<Scope, Record<Period, string>>;
export type DraftErrors = Partial<Record<`${Scope} ${Period}`, string>>;

const text = (micros: number | null | undefined) => (micros === null || micros === undefined ? '' : microsToDecimal(micros));
const texts = (limit: HubLimit | undefined) => ({ daily: text(limit?.daily_micros), monthly: text(limit?.monthly_micros) });

/** The form as the stored limits fill it, with a row for every subscription and member listed. */
export function draftOf(budgets: HubBudgets, subscriptionIds: readonly string[], memberIds: readonly string[]): Draft {
  const draft: Draft = { organization: texts(budgets.limits.organization), per_member: texts(budgets.limits.per_member) };
  for (const id of subscriptionIds) draft[`subscription:${id}`] = texts(budgets.limits.subscriptions.find((l) => l.subscription_id === id));
  for (const id of memberIds) draft[`member:${id}`] = texts(budgets.limits.members.find((l) => l.member_id === id));
  return draft;
}

/** One field: blank is no limit; otherwise dollars, at most six decimals, not negative, within the hub's bound. */
export function readLimit(value: string): { micros: number | null } | { error: string } {
  if (value.trim() === '') return { micros: null };
  const parsed = parseMoneyText(value);
  if ('error' in parsed) return parsed;
  if (parsed.micros > HUB_LIMIT_MAX_MICROS) return { error: `At most ${formatMicros(HUB_LIMIT_MAX_MICROS)} a period.` };
  return parsed;
}

/** The whole document to PUT, or the error of each field that cannot be read. Rows with no limit are left out. */
export function readDraft(draft: Draft): { input: HubBudgetsInput } | { errors: DraftErrors } {
  const errors: DraftErrors = {};
  const limitOf = (scope: Scope): HubLimit => {
    const out: HubLimit = { daily_micros: null, monthly_micros: null };
    for (const period of PERIODS) {
      const read = readLimit(draft[scope]?.[period] ?? '');
      if ('error' in read) errors[`${scope} ${period}`] = read.error;
      else out[period === 'daily' ? 'daily_micros' : 'monthly_micros'] = read.micros;
    }
    return out;
  };
  const any = (l: HubLimit) => l.daily_micros !== null || l.monthly_micros !== null;
  const scopes = Object.keys(draft) as Scope[];
  const input: HubBudgetsInput = {
    organization: limitOf('organization'),
    per_member: limitOf('per_member'),
    subscriptions: scopes
      .filter((s) => s.startsWith('subscription:'))
      .map((s) => ({ subscription_id: s.slice('subscription:'.length), ...limitOf(s) }))
      .filter(any),
    members: scopes
      .filter((s) => s.startsWith('member:'))
      .map((s) => ({ member_id: s.slice('member:'.length), ...limitOf(s) }))
      .filter(any),
  };
  return Object.keys(errors).length ? { errors } : { input };
}

/** Spent against a limit, in whole percent (rounded down: 99.9% is not yet the limit); null without a limit. */
export function percentOf(spent: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit === 0) return spent > 0 ? 100 : 0;
  return Math.floor((spent * 100) / limit);
}
