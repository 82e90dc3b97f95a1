import { useMemo } from 'react';
import type { Connection } from '../../data';
import { useLot } from './use-lots';

/**
 * The sampled item IDs of a lot, for the review workspace: null while the lot is read, an empty set when it is not found. The set keeps its identity until the
 * sample changes (an extension).
 */
export function useLotSample(connection: Connection, lotId: string): { ids: ReadonlySet<string> | null; description: string } {
  const { lot } = useLot(connection, lotId);
  const key = lot ? JSON.stringify(lot.sampleIds) : lot === null ? '[]' : null;
  const ids = useMemo(() => (key === null ? null : new Set(JSON.parse(key) as string[])), [key]);
  const description = lot
    ? `the sample of lot ${lot.id} (${lot.sampleIds.length} of ${lot.itemIds.length} items)`
    : lot === null
      ? `no lot ${lotId}`
      : 'the lot';
  return { ids, description };
}
