import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_COLUMNS } from '../../../src/api/contract/hub';
import { ENGINES, startTestHub, type CallOptions, type TestHub } from './hub-harness';

/*
 * The audit export: the filtered log as CSV or JSON Lines, for admins and viewers, as a download
 * named by the hub; CSV cells a spreadsheet could run are neutralised; the rows are those /audit
 * gives for the same filters, across many pages.
 */

/** A CSV file's rows, read by the library spreadsheets' importers are tested against. */
const parseCsv = (text: string) => Papa.parse<string[]>(text).data;

describe.each(ENGINES)('hub audit export on %s', (engine) => {
  let t: TestHub;
  let admin = '';
  let adminId = '';
  let reviewerId = '';
  beforeAll(async () => {
    t = await startTestHub(engine);
    admin = await t.signIn(t.accounts.admin);
    adminId = (await t.call('GET', '/hub/v1/me', { cookie: admin })).body.member.id;
    const reviewer = await t.signIn(t.accounts.reviewer1);
    reviewerId = (await t.call('GET', '/hub/v1/me', { cookie: reviewer })).body.member.id;
    // More rows than one export page (500), from two members.
    for (let i = 0; i < 520; i++) {
      await t.call('POST', '/hub/v1/tokens', {
        cookie: i % 2 ? reviewer : admin,
        body: { name: `token ${i}`, scope: 'read', subscriptions: ['*'], expires_in_days: 1 },
      });
    }
  });
  afterAll(() => t?.close());

  /** Every row /audit gives for these filters, page by page. */
  async function listed(filters: string) {
    const rows: any[] = [];
    let after = '';
    for (;;) {
      const page = (await t.call('GET', `/hub/v1/audit?limit=100&${filters}${after}`, { cookie: admin })).body;
      rows.push(...page.rows);
      if (page.next === null) return rows;
      after = `&after=${page.next}`;
    }
  }

  it('exports JSON Lines with exactly the rows /audit gives for the same filters, as a named download', async () => {
    const filters = `member=${reviewerId}&action=token.create`;
    const answer = await t.call('GET', `/hub/v1/audit/export?format=jsonl&${filters}`, { cookie: admin });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/jsonl/);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="hub-audit-\d{8}T\d{6}Z\.jsonl"$/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const lines = answer.text.split('\n');
    expect(lines.pop()).toBe('');
    const rows = lines.map((line) => JSON.parse(line));
    expect(rows).toHaveLength(260);
    expect(rows).toEqual(await listed(filters));
    expect(rows.every((r) => r.actor_id === reviewerId && r.action === 'token.create')).toBe(true);

    // Unfiltered, the whole log: more than one export page, in seq order, each row once.
    const whole = await t.call('GET', '/hub/v1/audit/export?format=jsonl', { cookie: admin });
    // Streamed: its headers leave before the second page is read, so its length is unknown then.
    expect(whole.headers.get('content-length')).toBeNull();
    expect(whole.headers.get('transfer-encoding')).toBe('chunked');
    const all = whole.text.trim().split('\n');
    const seqs = all.map((line) => JSON.parse(line).seq as number);
    expect(seqs.length).toBeGreaterThan(520);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });

  it('exports CSV with a header row, the same rows, and every text cell a spreadsheet could run neutralised', async () => {
    const filters = `member=${adminId}&action=token.create`;
    const answer = await t.call('GET', `/hub/v1/audit/export?format=csv&${filters}`, { cookie: admin });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="hub-audit-\d{8}T\d{6}Z\.csv"$/);
    const table = parseCsv(answer.text.replace(/\r\n$/, ''));
    expect(table[0]).toEqual(AUDIT_COLUMNS);
    const expected = await listed(filters);
    expect(table.length - 1).toBe(expected.length);
    const column = (name: string) => AUDIT_COLUMNS.indexOf(name as (typeof AUDIT_COLUMNS)[number]);
    expect(table.slice(1).map((row) => Number(row[column('seq')]))).toEqual(expected.map((r) => r.seq));
    expect(table.slice(1).every((row) => row[column('actor_id')] === adminId && row[column('action')] === 'token.create')).toBe(true);

    // A member's email is anyone's text and lands in the log as a target: formulas, a zero-width
    // space before one, a fullwidth equals sign, a quote and a comma.
    const emails = ['=cmd|calc@demo.hub', '+sum(a1)@demo.hub', '-2+3@demo.hub', '\u22121@demo.hub', '\u200b=1@demo.hub', '\uff1d1@demo.hub', '"q",c@demo.hub'];
    for (const email of emails) {
      const made = await t.call('POST', '/hub/v1/members', { cookie: admin, body: { email, role: 'viewer', password: 'formula-password-1' } });
      expect(made.status, made.text).toBe(201);
    }
    const added = parseCsv((await t.call('GET', '/hub/v1/audit/export?format=csv&action=member.add', { cookie: admin })).text.replace(/\r\n$/, ''));
    const targets = added.slice(-emails.length).map((row) => row[column('target')]);
    expect(targets).toEqual(emails.map((email) => (email.startsWith('"') ? email : `'${email}`)));
  });

  it('is for admins and viewers (their tokens too); reviewers and nobody are refused', async () => {
    const viewer = await t.signIn(t.accounts.viewer);
    const viewerToken = (
      await t.call('POST', '/hub/v1/tokens', { cookie: viewer, body: { name: 'export', scope: 'read', subscriptions: ['*'], expires_in_days: 1 } })
    ).body.token;
    const matrix: [string, CallOptions, number][] = [
      ['admin', { cookie: admin }, 200],
      ['viewer', { cookie: viewer }, 200],
      ['viewer token', { token: viewerToken, origin: null }, 200],
      ['reviewer', { cookie: await t.signIn(t.accounts.reviewer2) }, 403],
      ['anonymous', {}, 401],
    ];
    for (const [who, as, status] of matrix) {
      for (const format of ['csv', 'jsonl']) {
        const answer = await t.call('GET', `/hub/v1/audit/export?format=${format}&action=member.add`, as);
        expect([who, format, answer.status]).toEqual([who, format, status]);
        if (status !== 200) expect(answer.body).toMatchObject({ success: false, errorCode: expect.any(String) });
      }
    }
  });

  it('answers bad input with a 400 envelope naming the parameter', async () => {
    const bad: [string, RegExp][] = [
      ['', /format/],
      ['format=xlsx', /format/],
      ['format=csv&from=yesterday', /from/],
      ['format=csv&to=2026-13-45', /to/],
      ['format=csv&member=' + 'x'.repeat(65), /member/],
      ['format=csv&format=jsonl', /format/],
      ['format=csv&after=3', /after|unrecognized/i],
      ['format=csv&limit=10', /limit|unrecognized/i],
    ];
    for (const [query, message] of bad) {
      const answer = await t.call('GET', `/hub/v1/audit/export?${query}`, { cookie: admin });
      const label = `${query} → ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, label).toBe(400);
      expect(answer.body, label).toMatchObject({ success: false, errorCode: 'INVALID_PARAMETER' });
      expect(answer.body.errorMessage, label).toMatch(message);
    }
  });
});
