/*
 * The hub's request bodies and queries: its wire schemas live in the shared contract
 * (src/api/contract/hub.ts), so the console's team pages and the OpenAPI document use the same ones.
 */
export {
  auditExportQuery,
  auditQuery,
  newMemberBody,
  newTokenBody,
  newVendorKeyBody,
  roleBody,
  rotateVendorKeyBody,
  signInBody,
  signOutQuery,
  teamSettingsBody,
  tokensQuery,
} from '../../../src/api/contract/hub';
