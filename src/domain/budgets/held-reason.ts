import { formatMicros, OVER_RANGE } from '../../lib/money';
import type { OutboxEntry } from '../outbox/model';
import { PERIOD_LABELS } from './model';
import { spanOf, type Span } from './periods';
import { behindText } from './trusted-clock';

type Held = Pick<OutboxEntry, 'heldBy' | 'subscriptionId'> & Partial<Pick<OutboxEntry, 'heldClock'>>;

/**
 * The day or month a hold's spend was counted in, when it is earlier than `now`'s: a decision held
 * yesterday stays held, but yesterday's spend is not today's. Null for any other hold: one of
 * `now`'s period, one a device clock a little behind the gate's trusted time (the gate doubts one
 * far behind) dates after it, one kept before holds had a time, and the visit's (no span).
 */
function earlierPeriod(by: NonNullable<OutboxEntry['heldBy']>, now: number): Span | null {
  const own = by.at === undefined ? null : spanOf(by.period, by.at);
  return own && own.start < spanOf(by.period, now)!.start ? own : null;
}

/** The date of a hold of an earlier period, as the reason says it (" on 3 Dec", " in November 2026"); else nothing. */
function pastPeriod(by: NonNullable<OutboxEntry['heldBy']>, now: number): string {
  const earlier = earlierPeriod(by, now);
  if (!earlier) return '';
  const when = new Date(earlier.start).toLocaleDateString(
    undefined,
    by.period === 'daily' ? { day: 'numeric', month: 'short' } : { month: 'long', year: 'numeric' },
  );
  return ` ${by.period === 'daily' ? 'on' : 'in'} ${when}`;
}

/**
 * Why a decision is held, in words: "organization daily limit $0.05 (spent $0.034)", and "(spent
 * $0.05 on 3 Dec)" for a hold of an earlier day or month than `now`'s. A subscription's limit is
 * named by `nameOf` (the name a person reads, subscription-names.ts); without it, by its ID.
 */
export function heldReason(entry: Held, nameOf: (subscriptionId: string) => string = (id) => id, now = Date.now()): string {
  const clock = entry.heldClock;
  if (clock) {
    return `the time is in doubt: this device’s clock is ${behindText(clock.trustedAt - clock.localAt)} behind the newest time the service reported or this console used, so today and this month cannot be told (put the clock right, or release it)`;
  }
  const by = entry.heldBy;
  if (!by) return 'a budget limit';
  const whose = by.level === 'organization' ? 'organization' : nameOf(entry.subscriptionId);
  // The gate stores a spend past the exact range as the range's end (spend.ts): it says "over", not digits it cannot vouch for.
  const spent = by.spentMicros >= Number.MAX_SAFE_INTEGER ? OVER_RANGE : by.spentMicros;
  return `${whose} ${PERIOD_LABELS[by.period].toLowerCase()} limit ${formatMicros(by.limitMicros)} (spent ${formatMicros(spent)}${pastPeriod(by, now)})`;
}

/** The day or month a hold counts in: its own when earlier (`earlierPeriod`), else `now`'s, where it is read. */
const heldIn = (by: NonNullable<OutboxEntry['heldBy']>, now: number): number => (earlierPeriod(by, now) ?? spanOf(by.period, now))?.start ?? 0;

/**
 * The limits that hold decisions, each once, in words (`heldReason`): decisions a limit held one
 * after another each recorded the spend of their moment, and "daily limit $0.01 (spent $0.00);
 * daily limit $0.01 (spent $0.01)" read as two limits. Each limit says the most it was found spent
 * in each of its days or months: holds of yesterday and of today are two lines, each with its own spend.
 */
export function heldLimits(entries: readonly Held[], nameOf: (subscriptionId: string) => string = (id) => id, now = Date.now()): string[] {
  const newest = new Map<string, (typeof entries)[number]>();
  for (const entry of entries) {
    const by = entry.heldBy;
    const key =
      entry.heldClock || !by
        ? heldReason(entry, nameOf)
        : `${by.level}\n${by.level === 'organization' ? '' : entry.subscriptionId}\n${by.period}\n${by.limitMicros}\n${heldIn(by, now)}`;
    const kept = newest.get(key);
    if (!kept || (by && kept.heldBy && by.spentMicros > kept.heldBy.spentMicros)) newest.set(key, entry);
  }
  return [...newest.values()].map((entry) => heldReason(entry, nameOf, now));
}
