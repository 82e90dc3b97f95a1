import type { Connection } from './connection';
import { NO_NAMES, shortId, verticalName, type Names } from './names';

/** A UUID, as names.ts reads one (kept here: that module is on the first page, this one is not). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a subscription reads as: the name the connection gave it, else the name of the vertical it
 * delivers (when the page knows it), else its ID (a UUID cut short). Pages show the whole ID on hover;
 * exports keep IDs.
 */
export function subscriptionName(connection: Pick<Connection, 'subscriptions'>, subscriptionId: string, verticalId?: string, names: Names = NO_NAMES): string {
  const label = connection.subscriptions.find((s) => s.id === subscriptionId)?.label?.trim();
  if (label) return label;
  if (verticalId && names.verticals.has(verticalId)) return verticalName(names, verticalId);
  // A UUID is cut to what tells it apart; any other ID is the name the account chose, read whole.
  return UUID.test(subscriptionId) ? shortId(subscriptionId) : subscriptionId;
}

/**
 * Names of subscriptions shown side by side (a filter's options, a chart's legend, a table's
 * columns). Two that would read alike each get their ID after the name, so a person can still
 * tell them apart.
 */
export function subscriptionNames(
  connection: Pick<Connection, 'subscriptions'>,
  subscriptionIds: Iterable<string>,
  verticalOf: (subscriptionId: string) => string | undefined = () => undefined,
  names: Names = NO_NAMES,
): ReadonlyMap<string, string> {
  const named = [...new Set(subscriptionIds)].map((id) => [id, subscriptionName(connection, id, verticalOf(id), names)] as const);
  const uses = new Map<string, number>();
  for (const [, name] of named) uses.set(name, (uses.get(name) ?? 0) + 1);
  return new Map(named.map(([id, name]) => [id, (uses.get(name) ?? 0) > 1 && name !== id ? `${name} (${id})` : name]));
}

/**
 * `subscriptionName` for a text that names one of the connection's subscriptions where the others
 * could be read too (a notice, a list of held limits): two with the same label read apart, as the
 * pages that show them side by side (`subscriptionNames`) tell them.
 */
export function connectionSubscriptionName(connection: Pick<Connection, 'subscriptions'>): (subscriptionId: string) => string {
  const named = subscriptionNames(
    connection,
    connection.subscriptions.map((s) => s.id),
  );
  return (subscriptionId) => named.get(subscriptionId) ?? subscriptionName(connection, subscriptionId);
}
