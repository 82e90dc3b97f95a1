import { Hono } from 'hono';
import { validJson } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { newVendorKeyBody, rotateVendorKeyBody } from '../http/schemas';
import { appendAudit } from '../store/audit';
import {
  addVendorKey,
  findVendorKeyByName,
  listVendorKeys,
  lockVendorKeys,
  overlapMessage,
  removeVendorKey,
  rotateVendorKey,
  vendorKeyView,
} from '../store/vendor-keys';

const ADMIN = { roles: ['admin'] } as const;

/**
 * The vendor keys the hub forwards /v1 with, for admins signed in (never a token: a script that
 * leaks must not be able to swap the key). The key goes in and never comes out: no answer, log
 * line or audit row carries it or any part of it.
 */
export function vendorKeysRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/vendor-keys', async (c) => {
    allow(c, ADMIN);
    return c.json({ vendor_keys: (await listVendorKeys(ctx.db)).map(vendorKeyView) });
  });

  router.post('/vendor-keys', validJson(newVendorKeyBody), async (c) => {
    const admin = allow(c, ADMIN);
    const input = c.req.valid('json');
    const subscriptions = [...new Set(input.subscriptions)];
    const added = await ctx.db.transaction().execute(async (trx) => {
      await lockVendorKeys(trx, ctx.engine);
      const row = await addVendorKey(trx, ctx.cipher, { ...input, subscriptions });
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'vendor_key.add',
        target: input.name,
        outcome: 'exists' in row ? 'exists' : 'overlap' in row ? 'overlap' : 'ok',
        details: { subscriptions: JSON.stringify(subscriptions), jwt: input.jwt === undefined ? 0 : 1 },
      });
      return row;
    });
    if ('exists' in added) throw new HubError('VENDOR_KEY_EXISTS', `a vendor key named ${input.name} exists: rotate it, or remove it first`);
    if ('overlap' in added) throw new HubError('VENDOR_KEY_OVERLAP', overlapMessage(added));
    return c.json({ vendor_key: vendorKeyView(added) }, 201);
  });

  router.put('/vendor-keys/:name', validJson(rotateVendorKeyBody), async (c) => {
    const admin = allow(c, ADMIN);
    const input = c.req.valid('json');
    const name = c.req.param('name');
    const rotated = await ctx.db.transaction().execute(async (trx) => {
      const row = await findVendorKeyByName(trx, name);
      if (!row) return null;
      const next = await rotateVendorKey(trx, ctx.cipher, row, input);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'vendor_key.rotate',
        target: name,
        outcome: 'ok',
        details: { jwt: input.jwt === undefined ? 0 : 1 },
      });
      return next;
    });
    if (!rotated) throw new HubError('NOT_FOUND', 'no vendor key of that name');
    return c.json({ vendor_key: vendorKeyView(rotated) });
  });

  router.delete('/vendor-keys/:name', async (c) => {
    const admin = allow(c, ADMIN);
    const name = c.req.param('name');
    const removed = await ctx.db.transaction().execute(async (trx) => {
      const row = await findVendorKeyByName(trx, name);
      if (!row) return null;
      await removeVendorKey(trx, row.id);
      await appendAudit(trx, { actorId: admin.member.id, via: admin.via, action: 'vendor_key.remove', target: name, outcome: 'ok' });
      return row;
    });
    if (!removed) throw new HubError('NOT_FOUND', 'no vendor key of that name');
    return c.json({ removed: name });
  });

  return router;
}
