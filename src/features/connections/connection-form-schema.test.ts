import { describe, expect, it } from 'vitest';
import { connectionFormSchema } from './connection-form-schema';
import { jwtInfo } from '../../data';

const b64 = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (claims: object) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.sig`;

describe('connection form', () => {
  const base = { id: '1', name: 'Prod', baseUrl: 'https://dds.example.com/', subscriptions: [], remember: false, jwt: '' };

  it('accepts a well-formed key and trims the base URL', () => {
    const parsed = connectionFormSchema.parse({ ...base, apiKey: `dds_live_sk_${'x'.repeat(32)}` });
    expect(parsed.baseUrl).toBe('https://dds.example.com');
    expect(parsed.jwt).toBeUndefined();
  });

  it.each(['', 'dds_live_sk_short', `dds_live_sk_${'x'.repeat(33)}`, `dds_live_sk_${'x'.repeat(31)}!`, `Bearer dds_live_sk_${'x'.repeat(32)}`])(
    'refuses the malformed key %j before any request',
    (apiKey) => {
      expect(connectionFormSchema.safeParse({ ...base, apiKey }).success).toBe(false);
    },
  );

  it('refuses a base URL that is not http(s) or carries credentials', () => {
    for (const baseUrl of ['javascript:alert(1)', 'ftp://x', 'https://user:pw@host', 'not a url']) {
      expect(connectionFormSchema.safeParse({ ...base, baseUrl, apiKey: `dds_live_sk_${'x'.repeat(32)}` }).success).toBe(false);
    }
  });

  it('refuses a JWT that is not three base64url parts', () => {
    expect(connectionFormSchema.safeParse({ ...base, apiKey: `dds_live_sk_${'x'.repeat(32)}`, jwt: 'abc' }).success).toBe(false);
  });
});

describe('jwtInfo', () => {
  it('decodes exp and flags an expired token', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(jwtInfo(token({ exp: now / 1000 + 60, sub: 'org' }), now)).toMatchObject({ expired: false, subject: 'org' });
    expect(jwtInfo(token({ exp: now / 1000 - 60 }), now)).toMatchObject({ expired: true });
    expect(jwtInfo('x.y.z')).toHaveProperty('error');
  });
});
