/** Public entry of the connections feature. */
export { AuthBanner } from './components/auth-banner';
export { ConnectionSwitcher } from './components/connection-switcher';
export { ConnectionsPage } from './components/connections-page';
export { JwtStatus } from './components/jwt-status';
export { NoSubscriptions } from './components/no-subscriptions';
export { SecretText } from './components/secret-text';
export { useActiveConnection, useConnections } from './hooks';
export { useConnectionLifecycle } from './lifecycle';
