import { queryOptions } from '@tanstack/react-query';
import { hubApi, type AuditCursor, type AuditFilters } from './api';

/** Every read of the hub's team endpoints lives under this prefix (a sign-out drops them all). */
export const HUB_QUERY_KEY = ['hub'] as const;

export const membersQuery = () => queryOptions({ queryKey: [...HUB_QUERY_KEY, 'members'], queryFn: hubApi.members });
export const vendorKeysQuery = () => queryOptions({ queryKey: [...HUB_QUERY_KEY, 'vendor-keys'], queryFn: hubApi.vendorKeys });
export const tokensQuery = () => queryOptions({ queryKey: [...HUB_QUERY_KEY, 'tokens'], queryFn: hubApi.tokens });
export const settingsQuery = () => queryOptions({ queryKey: [...HUB_QUERY_KEY, 'settings'], queryFn: hubApi.settings });
export const auditQuery = (filters: AuditFilters, cursor: AuditCursor) =>
  queryOptions({ queryKey: [...HUB_QUERY_KEY, 'audit', filters, cursor], queryFn: () => hubApi.audit(filters, cursor) });
