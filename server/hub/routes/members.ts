import { Hono } from 'hono';
import { validJson } from '../../http/validate';
import { HubError } from '../errors';
import { allow } from '../http/auth';
import type { HubContext, HubEnv } from '../http/context';
import { newMemberBody, roleBody } from '../http/schemas';
import { appendAudit } from '../store/audit';
import { addMember, findActive, isLastAdmin, listActive, memberView, removeMember, setRole } from '../store/members';

const ADMIN = { roles: ['admin'] } as const;

/** Members, for admins: list (a token may read it), add, change a role, remove. */
export function membersRouter(ctx: HubContext) {
  const router = new Hono<HubEnv>();

  router.get('/members', async (c) => {
    allow(c, { ...ADMIN, token: true });
    return c.json({ members: (await listActive(ctx.db)).map(memberView) });
  });

  router.post('/members', validJson(newMemberBody), async (c) => {
    const admin = allow(c, ADMIN);
    const input = c.req.valid('json');
    // Hashed before the transaction: SQLite has one connection, and no transaction waits on CPU work.
    const passwordHash = await ctx.passwords.hash(input.password);
    const added = await ctx.db.transaction().execute(async (trx) => {
      const member = await addMember(trx, { email: input.email, role: input.role, passwordHash });
      const outcome = 'exists' in member ? 'exists' : 'ok';
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'member.add',
        target: input.email.toLowerCase(),
        outcome,
        details: { role: input.role },
      });
      return member;
    });
    if ('exists' in added) throw new HubError('MEMBER_EXISTS', 'a member with this email exists');
    return c.json({ member: memberView(added) }, 201);
  });

  router.patch('/members/:id', validJson(roleBody), async (c) => {
    const admin = allow(c, ADMIN);
    const { role } = c.req.valid('json');
    const id = c.req.param('id');
    const result = await ctx.db.transaction().execute(async (trx) => {
      const member = await findActive(trx, id);
      if (!member) return 'missing' as const;
      if (role !== 'admin' && (await isLastAdmin(trx, member))) return 'last' as const;
      await setRole(trx, id, role);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'member.role',
        target: member.email,
        outcome: 'ok',
        details: { from: member.role, to: role },
      });
      return { ...member, role };
    });
    if (result === 'missing') throw new HubError('NOT_FOUND', 'no such member');
    if (result === 'last') throw new HubError('LAST_ADMIN', 'the hub must keep one admin: make another member admin first');
    return c.json({ member: memberView(result) });
  });

  router.delete('/members/:id', async (c) => {
    const admin = allow(c, ADMIN);
    const id = c.req.param('id');
    const result = await ctx.db.transaction().execute(async (trx) => {
      const member = await findActive(trx, id);
      if (!member) return 'missing' as const;
      if (await isLastAdmin(trx, member)) return 'last' as const;
      await removeMember(trx, id);
      await appendAudit(trx, {
        actorId: admin.member.id,
        via: admin.via,
        action: 'member.remove',
        target: member.email,
        outcome: 'ok',
        details: { role: member.role },
      });
      return member;
    });
    if (result === 'missing') throw new HubError('NOT_FOUND', 'no such member');
    if (result === 'last') throw new HubError('LAST_ADMIN', 'the hub must keep one admin: make another member admin first');
    return c.json({ removed: result.id });
  });

  return router;
}
