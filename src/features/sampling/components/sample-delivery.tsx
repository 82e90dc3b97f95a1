import { useMemo } from 'react';
import type { Connection, ConnectionSubscription } from '../../../data';
import { useTriageRows } from '../../triage';
import { SampleAction } from './sample-dialog';

/**
 * "Sample this delivery": the lot is the delivery's undecided items as the local store holds them
 * (the delivery's page keeps them before it shows them); nothing when none is kept.
 */
export function SampleDeliveryAction({
  connection,
  subscription,
  deliveryId,
  itemIds,
}: {
  connection: Connection;
  subscription: ConnectionSubscription;
  deliveryId: string;
  itemIds: readonly string[];
}) {
  const { rows } = useTriageRows(connection, subscription.id);
  const kept = useMemo(() => {
    if (!rows) return null;
    const wanted = new Set(itemIds);
    return rows.filter((row) => wanted.has(row.item.itemId));
  }, [rows, itemIds]);
  if (!kept || kept.length === 0) return null;
  return (
    <SampleAction
      connection={connection}
      subscription={subscription}
      rows={kept}
      label="Sample this delivery…"
      source={{ kind: 'delivery', deliveryId, description: `Undecided items of delivery ${deliveryId} (${subscription.label ?? subscription.id})` }}
    />
  );
}
