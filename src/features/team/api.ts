import {
  accessTokensResponse,
  auditResponse,
  memberResponse,
  membersResponse,
  newTokenResponse,
  removedResponse,
  revokedResponse,
  teamSettingsResponse,
  vendorKeyResponse,
  vendorKeysResponse,
  type AuditExportFormat,
  type AuditOrder,
  type HubRole,
  type TeamSettingsInput,
  type TokenScope,
} from '../../api/contract/hub';
import { hubCall as call } from '../../api/hub';

/*
 * The team hub's own endpoints, on the console's own origin (the hub serves the console): the
 * session cookie goes with every call (`same-origin`), never an Authorization header. Calls go
 * through the client's shared request (src/api/hub.ts), so a failure is its ApiError, redacted.
 */

export { call };

const HUB = '/hub/v1';

const id = (value: string) => encodeURIComponent(value);

export const hubApi = {
  members: () => call(membersResponse, '/members'),
  addMember: (body: { email: string; role: HubRole; password: string }) => call(memberResponse, '/members', { method: 'POST', body }),
  setRole: (memberId: string, role: HubRole) => call(memberResponse, `/members/${id(memberId)}`, { method: 'PATCH', body: { role } }),
  removeMember: (memberId: string) => call(removedResponse, `/members/${id(memberId)}`, { method: 'DELETE' }),
  vendorKeys: () => call(vendorKeysResponse, '/vendor-keys'),
  addVendorKey: (body: { name: string; key: string; jwt?: string; subscriptions: string[] }) =>
    call(vendorKeyResponse, '/vendor-keys', { method: 'POST', body }),
  rotateVendorKey: (name: string, body: { key: string; jwt?: string }) => call(vendorKeyResponse, `/vendor-keys/${id(name)}`, { method: 'PUT', body }),
  removeVendorKey: (name: string) => call(removedResponse, `/vendor-keys/${id(name)}`, { method: 'DELETE' }),
  tokens: () => call(accessTokensResponse, '/tokens'),
  createToken: (body: { name: string; scope: TokenScope; subscriptions: string[]; expires_in_days: number }) =>
    call(newTokenResponse, '/tokens', { method: 'POST', body }),
  revokeToken: (tokenId: string) => call(revokedResponse, `/tokens/${id(tokenId)}`, { method: 'DELETE' }),
  audit: (filters: AuditFilters, cursor: AuditCursor) => call(auditResponse, `/audit?${auditParams(filters, cursorParams(cursor))}`),
  settings: () => call(teamSettingsResponse, '/settings'),
  saveSettings: (body: Required<TeamSettingsInput>) => call(teamSettingsResponse, '/settings', { method: 'PUT', body }),
};

/** The audit page's filters, as the URL holds them: dates are days (YYYY-MM-DD), `to` inclusive. */
export interface AuditFilters {
  member?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** The day after a YYYY-MM-DD day: the hub's `to` is exclusive, the page's last day is included. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function auditParams(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.member) params.set('member', filters.member);
  if (filters.action) params.set('action', filters.action);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', dayAfter(filters.to));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.toString();
}

/** Which page of the log, in which order: what the hub is asked besides the filters. */
export interface AuditCursor {
  order: AuditOrder;
  /** The seq the page follows in that order (none: the first page). */
  from?: number;
}

/** The order, and the seq the page follows: `after` it oldest first, `before` it newest first. */
function cursorParams({ order, from }: AuditCursor): Record<string, string> {
  if (from === undefined) return { order };
  return { order, [order === 'asc' ? 'after' : 'before']: String(from) };
}

/** The export's address: a plain same-origin GET, so the browser streams the download itself. */
export const auditExportHref = (filters: AuditFilters, format: AuditExportFormat) => `${HUB}/audit/export?${auditParams(filters, { format })}`;
