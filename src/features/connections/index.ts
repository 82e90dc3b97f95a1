/** Public entry of the connections feature. */
export { AuthBanner } from './components/auth-banner';
export { ConnectionSwitcher } from './components/connection-switcher';
export { ConnectionsPage } from './components/connections-page';
export { ConnectionLifecycleProvider } from './components/lifecycle-provider';
