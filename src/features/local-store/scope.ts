/**
 * What local data belongs to: one organization (the key's `org_id` from verify-key) on one base
 * URL. Not the key, which rotates, and not the tab, which closes.
 */
export const scopeOf = (baseUrl: string, orgId: string) => `${baseUrl.replace(/\/+$/, '')} ${orgId}`;
