import { shortId, verticalName, type Connection, type Names } from '../../data';

/**
 * What a delivery's subscription reads as: the name the connection gave it, else the name of the
 * vertical it delivers, else a short form of its ID. The whole ID stays on hover and a copy away.
 */
export function subscriptionName(connection: Pick<Connection, 'subscriptions'>, subscriptionId: string, verticalId: string | undefined, names: Names): string {
  const label = connection.subscriptions.find((s) => s.id === subscriptionId)?.label?.trim();
  if (label) return label;
  if (verticalId && names.verticals.has(verticalId)) return verticalName(names, verticalId);
  return shortId(subscriptionId);
}
