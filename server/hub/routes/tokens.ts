import { Hono } from 'hono';
import { validJson, validQuery } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { newTokenBody, tokensQuery } from '../http/schemas';
import { createAccessToken, findToken, listTokens, revokeToken, tokenView } from '../store/access-tokens';
import { appendAudit } from '../store/audit';

const DAY_MS = 86_400_000;

/** Personal access tokens: a member makes, lists and revokes their own; an admin sees and revokes anyone's. */
export function tokensRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.post('/tokens', validJson(newTokenBody), async (c) => {
    const principal = allow(c, {});
    const input = c.req.valid('json');
    // A token never does more than its member may: a viewer's cannot decide.
    if (input.scope === 'decide' && principal.member.role === 'viewer')
      throw new HubError('FORBIDDEN', 'a viewer cannot make a token that decides: use scope read');
    const created = await ctx.db.transaction().execute(async (trx) => {
      const made = await createAccessToken(trx, {
        memberId: principal.member.id,
        name: input.name,
        scope: input.scope,
        subscriptions: [...new Set(input.subscriptions)],
        expiresAt: Date.now() + input.expires_in_days * DAY_MS,
      });
      await appendAudit(trx, {
        actorId: principal.member.id,
        via: principal.via,
        action: 'token.create',
        target: made.row.id,
        outcome: 'ok',
        details: { scope: input.scope, subscriptions: made.row.subscriptions, expires_at: made.row.expires_at },
      });
      return made;
    });
    // The one answer that carries the token: it is not stored, and cannot be shown again.
    return c.json({ token: created.token, access_token: tokenView(created.row) }, 201);
  });

  router.get('/tokens', validQuery(tokensQuery), async (c) => {
    const principal = allow(c, { token: true });
    const all = c.req.valid('query').all === 'true';
    if (all && principal.member.role !== 'admin') throw new HubError('FORBIDDEN', 'only an admin lists every member’s tokens');
    return c.json({ access_tokens: (await listTokens(ctx.db, all ? undefined : principal.member.id)).map(tokenView) });
  });

  router.delete('/tokens/:id', async (c) => {
    const principal = allow(c, {});
    const id = c.req.param('id');
    const result = await ctx.db.transaction().execute(async (trx) => {
      const token = await findToken(trx, id);
      // Another member's token is "not found" to a non-admin: its existence is not theirs to learn.
      if (!token || (token.member_id !== principal.member.id && principal.member.role !== 'admin')) return null;
      await revokeToken(trx, id);
      await appendAudit(trx, {
        actorId: principal.member.id,
        via: principal.via,
        action: 'token.revoke',
        target: id,
        outcome: token.revoked_at === null ? 'ok' : 'already_revoked',
      });
      return token;
    });
    if (!result) throw new HubError('NOT_FOUND', 'no such access token');
    return c.json({ revoked: id });
  });

  return router;
}
