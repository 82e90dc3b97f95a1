import { localChanges, readSetting, touches, updateSetting } from '../../domain/store';
import { DEFAULT_REASONS, parseReasonList, type ReasonCode } from './model';

/**
 * The organization's reason codes in the durable local store (per scope: the organization on a
 * base URL), kept in memory for the UI and read again when a tab changed them (the local store's
 * change feed) or when this tab is shown again (in case a message was missed). A missing or
 * damaged document gives the defaults.
 */
const NAME = 'disputeReasons';

const cache = new Map<string, readonly ReasonCode[]>();
const listeners = new Set<() => void>();
let unwatch: (() => void) | null = null;

const emit = () => {
  for (const listener of listeners) listener();
};

const same = (a: readonly ReasonCode[] | undefined, b: readonly ReasonCode[]) =>
  !!a && a.length === b.length && a.every((r, i) => r.code === b[i]!.code && r.label === b[i]!.label);

function remember(scope: string, list: readonly ReasonCode[]): void {
  if (same(cache.get(scope), list)) return;
  cache.set(scope, list);
  emit();
}

/** Reads the scope's list (the defaults when none is stored or it is damaged). */
export async function loadReasons(scope: string): Promise<readonly ReasonCode[]> {
  return (await readSetting(scope, NAME, parseReasonList)) ?? DEFAULT_REASONS;
}

/** Reads the list again into memory; a store that cannot be read leaves what was shown. */
export function refreshReasons(scope: string): Promise<void> {
  return loadReasons(scope).then(
    (list) => remember(scope, list),
    () => undefined,
  );
}

/**
 * Changes the list in one transaction on what is stored now (two tabs editing at once are
 * serialised, neither loses the other's change); the store tells the other tabs.
 */
export async function changeReasons(scope: string, change: (current: readonly ReasonCode[]) => readonly ReasonCode[]): Promise<readonly ReasonCode[]> {
  const next = await updateSetting(scope, NAME, parseReasonList, (current) => {
    const changed = [...change(current ?? DEFAULT_REASONS)];
    // Never store what would read back as damaged.
    return parseReasonList(changed) ?? [...(current ?? DEFAULT_REASONS)];
  });
  remember(scope, next);
  return next;
}

const onShown = () => {
  if (document.visibilityState === 'visible') for (const scope of cache.keys()) void refreshReasons(scope);
};

export function subscribeReasons(listener: () => void): () => void {
  if (listeners.size === 0) {
    // A scope in memory is read again when another tab changed its list (this tab's own change is remembered already).
    unwatch = localChanges().subscribe((change, here) => {
      if (!here && cache.has(change.scope) && touches(change, change.scope, 'settings', NAME)) void refreshReasons(change.scope);
    });
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onShown);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    unwatch?.();
    unwatch = null;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onShown);
  };
}

/** What the UI shows for a scope now: the last read list, or the defaults until it is read. */
export const reasonsSnapshot = (scope: string | null): readonly ReasonCode[] => (scope ? (cache.get(scope) ?? DEFAULT_REASONS) : DEFAULT_REASONS);

/** Whether the scope's list has been read (the editor waits for it before changing anything). */
export const reasonsLoaded = (scope: string | null): boolean => scope !== null && cache.has(scope);
