/** Public entry of local data management: what this device keeps per organization, and deleting it. */
export { DisconnectDialog } from './components/disconnect-dialog';
export { LocalDataPanel } from './components/local-data-panel';
