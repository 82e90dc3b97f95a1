import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, auditActionLabel, type AuditAction } from '../../../src/api/contract/hub-audit-actions';
import { openHubStore, type HubStore } from '../../hub/db/open';
import { appendAudit, verifyAudit, type AuditEntry } from '../../hub/store/audit';

/*
 * The Audit page's filter offers the actions of one shared list (src/api/contract/hub-audit-actions.ts).
 * A new action the hub writes must be named there first: appendAudit's type takes only a named
 * action (tsc fails otherwise; the type test below fails if that type ever widens), it
 * refuses any other at run time, and the hub's source is read here for every action it writes.
 */

const SERVER = new URL('../../', import.meta.url).pathname;

/** The hub's and its CLI's source files that append audit rows (tests aside). */
function writers(): { file: string; text: string }[] {
  const files = [...readdirSync(join(SERVER, 'hub'), { recursive: true, encoding: 'utf8' }).map((f) => join('hub', f)), join('cli', 'hub.ts')];
  return files
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((file) => ({ file, text: readFileSync(join(SERVER, file), 'utf8') }))
    .filter(({ text }) => /\bappendAudit(After)?\(/.test(text));
}

/** Every quoted `group.name` on an `action:` line (a ternary's two included), and every `prefix.${…}` template there. */
function writtenActions(text: string): { literals: string[]; templatePrefixes: string[] } {
  const lines = text.split('\n').filter((line) => /\baction: /.test(line));
  return {
    literals: lines.flatMap((line) => [...line.matchAll(/'([a-z0-9_]+\.[a-z0-9_]+)'/g)].map((m) => m[1]!)),
    templatePrefixes: lines.flatMap((line) => [...line.matchAll(/`([a-z0-9_]+)\.\$\{/g)].map((m) => m[1]!)),
  };
}

describe('the audit actions the hub writes', () => {
  it('are each named in the shared list, and the list names none the hub never writes', () => {
    const sources = writers();
    expect(sources.length).toBeGreaterThan(10);
    const all = sources.map(({ file, text }) => ({ file, ...writtenActions(text) }));
    for (const { file, literals } of all) for (const action of literals) expect(AUDIT_ACTIONS, `${file} writes ${action}`).toContain(action);
    const literals = new Set(all.flatMap((s) => s.literals));
    const prefixes = new Set(all.flatMap((s) => s.templatePrefixes));
    // `v1.${kind}` and `vote.${kind}`: computed names, each named in the list under its prefix.
    expect([...prefixes].sort()).toEqual(['v1', 'vote']);
    for (const action of AUDIT_ACTIONS) expect(literals.has(action) || prefixes.has(action.split('.')[0]!), `${action} is written somewhere`).toBe(true);
  });

  it('are named once each, in groups, for a person', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const { group, actions } of AUDIT_ACTION_GROUPS) {
      expect(group).not.toBe('');
      for (const [action, label] of Object.entries(actions)) expect(label, action).not.toContain('.');
    }
    expect(auditActionLabel('lease.take')).toBe('Lease taken');
    // A row an older hub wrote under a name no longer listed is shown as written.
    expect(auditActionLabel('team_decision.settle')).toBe('team_decision.settle');
  });
});

describe('appendAudit', () => {
  let dataDir = '';
  let store: HubStore;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hub-audit-actions-'));
    store = await openHubStore({ dataDir });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an action the list does not name, and the chain stays whole', async () => {
    const unnamed = 'lease.borrow' as AuditAction;
    await expect(store.db.transaction().execute((trx) => appendAudit(trx, { actorId: null, via: 'test', action: unnamed, outcome: 'ok' }))).rejects.toThrow(
      /lease\.borrow.*AUDIT_ACTION_GROUPS/,
    );
    await store.db.transaction().execute((trx) => appendAudit(trx, { actorId: null, via: 'test', action: 'lease.take', outcome: 'ok' }));
    expect(await verifyAudit(store.db)).toMatchObject({ ok: true, rows: 1 });
  });

  it('takes only a named action (checked by tsc: an unnamed one does not compile)', () => {
    expectTypeOf<AuditEntry['action']>().toEqualTypeOf<AuditAction>();
  });
});
