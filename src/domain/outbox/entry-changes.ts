import { redactSecrets } from '../../lib/redact';
import type { OutboxEntry } from './model';
import type { FailureOutcome } from './retry-policy';
import { move, standsOnItem } from './transitions';

/** Pure changes of one entry that the engine's commands and answers make. */

export const newEntryId = () => globalThis.crypto?.randomUUID?.() ?? `e${Date.now()}${Math.random().toString(36).slice(2)}`;
/** An error's words, redacted: they may come from a server (an echo of the key) and are stored in `lastError`. */
export const messageOf = (error: unknown) => redactSecrets(error instanceof Error ? error.message : String(error));

export const withoutError = (entry: OutboxEntry): OutboxEntry => {
  if (entry.lastError === undefined) return entry;
  const { lastError: _dropped, ...rest } = entry;
  return rest;
};
export const withoutMark = (entry: OutboxEntry): OutboxEntry => {
  if (entry.inFlightUntil === undefined) return entry;
  const { inFlightUntil: _landed, ...rest } = entry;
  return rest;
};
/** No longer paused by the user (a bulk run's Pause). */
export const released = (entry: OutboxEntry): OutboxEntry => {
  const { held: _dropped, ...rest } = entry;
  return rest;
};
/** A decision on an item that stands: on its way, waiting for confirmation, or confirmed. */
export const stands = (e: OutboxEntry) => standsOnItem(e.state);

/** What a failed send leaves (retry-policy.ts said what it leads to); `message` is its redacted words. */
export function afterFailure(e: OutboxEntry, outcome: FailureOutcome, message: string, now: number): OutboxEntry {
  const landed = withoutMark(e);
  switch (outcome.kind) {
    case 'conflict':
      return move(landed, 'conflict', 'conflict', { recorded: outcome.recorded, lastError: message });
    case 'team-held':
      return move(landed, 'team-held', 'held-team', { lastError: message, ...(outcome.holdId ? { holdId: outcome.holdId } : {}) });
    case 'pause-scope':
    case 'pause-subscription':
      // A refusal is not the decision's fault: it waits, its attempt uncounted, until the key is fixed.
      return move(landed, 'retry-later', 'queued', { attempts: Math.max(0, e.attempts - 1), nextAttemptAt: now, lastError: message });
    case 'retry':
      return move(landed, 'retry-later', 'queued', { nextAttemptAt: now + outcome.delayMs, lastError: message });
    case 'failed':
      return move(landed, 'gave-up', 'failed', { lastError: message });
  }
}
