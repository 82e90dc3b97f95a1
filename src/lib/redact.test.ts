import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, apiKeySchema, jwtSchema } from '../api/contract';
import { maskKey, redactSecrets, rememberSecret } from './redact';

const BODY = 'Ab3_-Zz9Ab3_-Zz9Ab3_-Zz9Ab3_-Zz9';
// A dashboard JWT as the local service signs one, and one whose header JSON has a space after `{`.
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJvcmdfMSIsImV4cCI6MTc5OTk5OTk5OX0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const SPACED_JWT = `${btoa('{ "alg": "HS256" }').replace(/=+$/, '')}.${btoa('{"sub":"x"}').replace(/=+$/, '')}.sig_-`;

const base64url = fc.stringMatching(/^[A-Za-z0-9_-]+$/);

describe('redactSecrets', () => {
  it('replaces every key form the contract accepts, wherever it sits in a text', () => {
    const keys = ['dds_live_sk_' + BODY, 'acme_live_sk_' + BODY, 'x1_live_sk_' + BODY, 'a_live_sk_' + '-'.repeat(32)];
    for (const key of keys) {
      expect(apiKeySchema.safeParse(key).success, key).toBe(true);
      for (const text of [key, `the key ${key} is revoked`, `"Bearer ${key}"`, `key=${key}&x=1`, `item-${key}-is already adopted`, `{"key":"${key}"}`]) {
        const redacted = redactSecrets(text);
        expect(redacted, text).not.toContain(BODY.slice(0, 8));
        expect(redacted).not.toContain('_live_sk_');
        expect(redacted).toContain('[redacted key]');
      }
    }
  });

  it('replaces any key the contract pattern accepts (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(API_KEY_PATTERN), fc.string(), fc.string(), (key, before, after) => {
        expect(redactSecrets(`${before} ${key} ${after}`)).not.toContain(key.slice(key.indexOf('_sk_') + 4));
      }),
    );
  });

  it('replaces a key in capitals, glued to other words, or cut short', () => {
    expect(redactSecrets(`DDS_LIVE_SK_${BODY}`)).toBe('[redacted key]');
    expect(redactSecrets(`token_dds_live_sk_${BODY}.`)).toBe('token_[redacted key].');
    expect(redactSecrets(`prefix1dds_live_sk_${BODY}`)).toBe('[redacted key]');
    expect(redactSecrets(`echo: dds_live_sk_${BODY.slice(0, 12)}…`)).toBe('echo: [redacted key]…');
  });

  it('replaces a key and a JWT glued together, in either order', () => {
    expect(redactSecrets(`item leak-dds_live_sk_${BODY}-${JWT} is adopted`)).toBe('item leak-[redacted key][redacted token] is adopted');
    const reversed = redactSecrets(`${JWT}dds_live_sk_${BODY}`);
    for (const part of [...JWT.split('.'), BODY.slice(0, 8)]) expect(reversed).not.toContain(part);
  });

  it('replaces JWTs, alone or glued, with any JSON header spacing', () => {
    expect(jwtSchema.safeParse(JWT).success).toBe(true);
    expect(jwtSchema.safeParse(SPACED_JWT).success).toBe(true);
    for (const token of [JWT, SPACED_JWT, `${JWT.split('.').slice(0, 2).join('.')}.`]) {
      for (const text of [token, `Authorization: Bearer ${token}`, `the dashboard JWT ${token} is invalid`, `jwt_${token}`, `{"t":"${token}"}`]) {
        const redacted = redactSecrets(text);
        expect(redacted, text).not.toContain(token.split('.')[1]);
        expect(redacted).toContain('[redacted token]');
      }
    }
  });

  it('replaces any three-part token with a JSON header (property)', () => {
    fc.assert(
      fc.property(fc.json(), fc.json(), base64url, (header, payload, signature) => {
        const encode = (text: string) =>
          btoa(String.fromCharCode(...new TextEncoder().encode(text)))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
        fc.pre(header.startsWith('{') && header.length > 6 && payload.length > 1);
        const token = `${encode(header)}.${encode(payload)}.${signature}`;
        expect(redactSecrets(`error: ${token} refused`)).toBe('error: [redacted token] refused');
      }),
    );
  });

  it('leaves ordinary text alone: words, URLs, host names, versions, masked keys', () => {
    for (const text of [
      'item 42 is already adopted',
      'https://dds.example.com/v1/data/items/abc/adopt',
      'the API key is malformed: expected <service>_live_sk_ and 32 URL-safe characters',
      'version 1.2.3 of api.example.org',
      maskKey(`dds_live_sk_${BODY}`),
      'subscription sub_live_demo is not covered by this API key',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  // A pattern that backtracks takes seconds on each of these runs (the test's timeout catches it); the time
  // itself is a benchmark's to measure, not a test's, so a busy machine cannot fail this.
  it('reads long hostile runs without a secret unchanged, and redacts each key in a run of key-shaped text', () => {
    const inert = [
      'a'.repeat(60_000),
      'eyJ'.repeat(20_000),
      `${'eyJ'.repeat(10_000)}.${'eyJ'.repeat(10_000)}`,
      'a.'.repeat(30_000),
      `${'ewsl'.repeat(8_000)}.ab.${'ewsl'.repeat(8_000)}.ab.c`,
    ];
    for (const run of inert) expect(redactSecrets(run) === run, run.slice(0, 8)).toBe(true);
    const keys = redactSecrets('_live_sk'.repeat(8_000));
    expect(keys).toMatch(/^_live_\[redacted key\]live_\[redacted key\]/);
    expect(keys).not.toMatch(/_sk_[A-Za-z0-9_-]{8}/);
  });
});

describe('maskKey', () => {
  it('keeps the prefix and the last four characters only', () => {
    expect(maskKey(`dds_live_sk_${BODY}`)).toBe('dds_live_sk_…-Zz9');
  });
});

describe('redactSecrets with the keys the console holds', () => {
  it('replaces a held key’s body echoed without its prefix, and any 32 URL-safe characters after `_sk_`', () => {
    const body = 'Zq9_-Hb4Zq9_-Hb4Zq9_-Hb4Zq9_-Hb4';
    // Not shaped like a key: unknown, the bare body would pass.
    expect(redactSecrets(`no such item ${body.split('').reverse().join('')}`)).toContain(body.split('').reverse().join(''));
    rememberSecret(`dds_live_sk_${body}`);
    expect(redactSecrets(`item ${body} is already adopted`)).toBe('item [redacted key] is already adopted');
    expect(redactSecrets(`key=dds_live_sk_${body}`)).toBe('key=[redacted key]');
    expect(redactSecrets(`glued${body}glued`)).not.toContain(body.slice(4, 28));
    // Another prefix than `<service>_live_sk_`: the 32 characters after `_sk_` go all the same.
    expect(redactSecrets(`acme_test_sk_${BODY} refused`)).toBe('acme_test_sk_[redacted key] refused');
  });
});
