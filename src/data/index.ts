/**
 * The shared data layer: the connection model and its store, a client per connection, the
 * query-key prefixes and an organization's scope (its local data), and the query factories more
 * than one feature reads. Features and
 * routes use it; it imports no feature.
 */
export { jwtInfo } from './jwt-info';
export { connectionSchema, isConnected, isServiceUrl, scopeOf, type Connection, type ConnectionSubscription } from './connection';
export { clientFor, connectionStore, consoleOrigin, keyedQueryKey, publicQueryKey, verifyNewKey } from './session';
export { localScope } from './local-scope';
export { decideRefusal, pullRefusal, HubModeContext, useHubMode, type HubMode } from './hub-mode';
export { HUB_LIVE_KEY, hubLive, pollUnlessLive, type HubLive } from './hub-live';
export { invalidateOnLocalChange } from './local-invalidation';
export { useLocalScope } from './use-local-scope';
export { useActiveConnection, useConnections } from './use-connections';
export { ConnectionLifecycleContext, useConnectionLifecycle } from './connection-lifecycle';
export { useOutbox } from './outbox';
export {
  outboxCounts,
  useLeaveGuard,
  useOtherTabsEntries,
  useOutboxEntries,
  useOutboxLoaded,
  useOutboxPaused,
  useOutboxPausedSubscriptions,
  useOutboxUnsettledNow,
  useOutboxWriteError,
} from './outbox-hooks';
export { usageQuery } from './usage-query';
export { SPEC_WARNINGS } from './usage-warnings';
export { deliveriesQuery, deliveryItemsQuery } from './delivery-queries';
export { namesQuery, NO_NAMES, shortId, taskFrontier, taskName, topicName, verticalName, type Names } from './names';
export { NamesContext, useNames } from './use-names';
export { connectionSubscriptionName, subscriptionName, subscriptionNames } from './subscription-names';
