import { Hono } from 'hono';
import { validJson } from '../../http/validate';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { teamSettingsBody } from '../http/schemas';
import { appendAudit } from '../store/audit';
import { readSettings, writeSettings } from '../store/settings';

/** What changed in a list of settings, by key: for the audit row, never the whole list twice. */
function changes<T>(before: readonly T[], after: readonly T[], key: (value: T) => string): string {
  const was = new Map(before.map((v) => [key(v), JSON.stringify(v)]));
  const now = new Map(after.map((v) => [key(v), JSON.stringify(v)]));
  const added = [...now.keys()].filter((k) => !was.has(k));
  const removed = [...was.keys()].filter((k) => !now.has(k));
  const changed = [...now.keys()].filter((k) => was.has(k) && was.get(k) !== now.get(k));
  const reordered = added.length === 0 && removed.length === 0 && [...was.keys()].join('\n') !== [...now.keys()].join('\n');
  return JSON.stringify({ added, removed, changed, ...(reordered ? { reordered: true } : {}) });
}

/**
 * Team settings: the dispute reason codes every member sees (the team's lots: routes/lots.ts). Any member (or a token
 * of theirs) reads them; an admin, signed in, replaces them. Each save is audited as
 * `settings.update` with what was added, removed and changed.
 */
export function settingsRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/settings', async (c) => {
    allow(c, { token: true });
    return c.json(await readSettings(ctx.db));
  });

  router.put('/settings', validJson(teamSettingsBody), async (c) => {
    const admin = allow(c, { roles: ['admin'] });
    const input = c.req.valid('json');
    await ctx.db.transaction().execute(async (trx) => {
      const before = await writeSettings(trx, input, admin.member.id);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'settings.update',
        target: 'team',
        outcome: 'ok',
        details: { reason_codes: changes(before.reason_codes, input.reason_codes, (r) => r.code) },
      });
    });
    return c.json(await readSettings(ctx.db));
  });

  return router;
}
