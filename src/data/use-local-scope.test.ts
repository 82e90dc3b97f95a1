import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Connection } from './connection';
import { useLocalScope } from './use-local-scope';

const verify = vi.hoisted(() => vi.fn<(connection: Connection) => Promise<string>>());
vi.mock('./local-scope', async (original) => ({ ...(await original<typeof import('./local-scope')>()), localScope: verify }));

const base = { id: 'c1', name: 'Acme', baseUrl: 'http://127.0.0.1:1', apiKey: 'k', subscriptions: [] } as unknown as Connection;

describe('useLocalScope', () => {
  it('knows a verified connection at once, with no verify', () => {
    const verified = { ...base, verified: { org_id: 'org_1', key_id: 'k1', key_name: 'n' } } as Connection;
    const { result } = renderHook(() => useLocalScope(verified));
    expect(result.current.scope).toContain('org_1');
    expect(verify).not.toHaveBeenCalled();
  });

  it('verifies an unverified connection once, and says when that fails', async () => {
    verify.mockResolvedValueOnce('scope-after-verify');
    const { result } = renderHook(() => useLocalScope(base));
    expect(result.current.scope).toBeNull();
    await waitFor(() => expect(result.current.scope).toBe('scope-after-verify'));
    expect(verify).toHaveBeenCalledTimes(1);

    const refused = new Error('refused');
    verify.mockRejectedValueOnce(refused);
    const other = { ...base, id: 'c2' };
    const failed = renderHook(() => useLocalScope(other));
    await waitFor(() => expect(failed.result.current.error).toBe(refused));
    expect(failed.result.current.scope).toBeNull();
  });

  it('gives nothing without a connection', () => {
    expect(renderHook(() => useLocalScope(null)).result.current).toEqual({ scope: null, error: null });
  });
});
