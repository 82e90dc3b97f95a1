import { formatMicros, OVER_RANGE } from '../../lib/money';
import type { OutboxEntry } from '../outbox/model';
import { PERIOD_LABELS } from './model';
import { behindText } from './trusted-clock';

/**
 * Why a decision is held, in words: "organization daily limit $0.05 (spent $0.034)". A subscription's
 * limit is named by `nameOf` (the name a person reads, subscription-names.ts); without it, by its ID.
 */
export function heldReason(
  entry: Pick<OutboxEntry, 'heldBy' | 'subscriptionId'> & Partial<Pick<OutboxEntry, 'heldClock'>>,
  nameOf: (subscriptionId: string) => string = (id) => id,
): string {
  const clock = entry.heldClock;
  if (clock) {
    return `the time is in doubt: this device’s clock is ${behindText(clock.trustedAt - clock.localAt)} behind the newest time the service reported or this console used, so today and this month cannot be told (put the clock right, or release it)`;
  }
  const by = entry.heldBy;
  if (!by) return 'a budget limit';
  const whose = by.level === 'organization' ? 'organization' : nameOf(entry.subscriptionId);
  // The gate stores a spend past the exact range as the range's end (spend.ts): it says "over", not digits it cannot vouch for.
  const spent = by.spentMicros >= Number.MAX_SAFE_INTEGER ? OVER_RANGE : by.spentMicros;
  return `${whose} ${PERIOD_LABELS[by.period].toLowerCase()} limit ${formatMicros(by.limitMicros)} (spent ${formatMicros(spent)})`;
}

/**
 * The limits that hold decisions, each once, in words (`heldReason`): decisions a limit held one
 * after another each recorded the spend of their moment, and "daily limit $0.01 (spent $0.00);
 * daily limit $0.01 (spent $0.01)" read as two limits. Each limit says the most it was found spent.
 */
export function heldLimits(
  entries: readonly (Pick<OutboxEntry, 'heldBy' | 'subscriptionId'> & Partial<Pick<OutboxEntry, 'heldClock'>>)[],
  nameOf: (subscriptionId: string) => string = (id) => id,
): string[] {
  const newest = new Map<string, (typeof entries)[number]>();
  for (const entry of entries) {
    const by = entry.heldBy;
    const key =
      entry.heldClock || !by
        ? heldReason(entry, nameOf)
        : `${by.level}\n${by.level === 'organization' ? '' : entry.subscriptionId}\n${by.period}\n${by.limitMicros}`;
    const kept = newest.get(key);
    if (!kept || (by && kept.heldBy && by.spentMicros > kept.heldBy.spentMicros)) newest.set(key, entry);
  }
  return [...newest.values()].map((entry) => heldReason(entry, nameOf));
}
