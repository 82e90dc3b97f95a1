import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { readSetting, updateSetting } from '../../domain/store';
import { localKey } from '../../domain/store/change-feed';
import { DEFAULT_REASONS, parseReasonList, type ReasonCode } from './model';

/**
 * The organization's reason codes in the durable local store (per scope: the organization on a
 * base URL). In memory they are a query of the app's query client, under the setting's `localKey`:
 * the local store's change feed invalidates it when any tab changes the list, and it is read again
 * when this tab is shown again (in case a message was missed). A missing or damaged document gives
 * the defaults.
 */
const NAME = 'disputeReasons';

/** Reads the scope's list (the defaults when none is stored or it is damaged). */
export async function loadReasons(scope: string): Promise<readonly ReasonCode[]> {
  return (await readSetting(scope, NAME, parseReasonList)) ?? DEFAULT_REASONS;
}

/** The scope's list as a query; a store that cannot be read leaves what was shown. */
export const reasonsQuery = (scope: string | null) =>
  queryOptions({
    queryKey: localKey(scope, 'settings', NAME),
    queryFn: () => loadReasons(scope!),
    enabled: scope !== null,
    // Read again by every page that shows them, and when the tab is shown again.
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

/**
 * Changes the list in one transaction on what is stored now (two tabs editing at once are
 * serialised, neither loses the other's change); the store tells the other tabs, and this tab's
 * query holds the new list at once.
 */
export async function changeReasons(
  queryClient: QueryClient,
  scope: string,
  change: (current: readonly ReasonCode[]) => readonly ReasonCode[],
): Promise<readonly ReasonCode[]> {
  const next = await updateSetting(scope, NAME, parseReasonList, (current) => {
    const changed = [...change(current ?? DEFAULT_REASONS)];
    // Never store what would read back as damaged.
    return parseReasonList(changed) ?? [...(current ?? DEFAULT_REASONS)];
  });
  queryClient.setQueryData(reasonsQuery(scope).queryKey, next);
  return next;
}
