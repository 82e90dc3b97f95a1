/*
 * Every action the hub writes to its audit log, grouped and named for a person, in ONE list: the
 * hub's `appendAudit` takes only an `AuditAction` (so a new action cannot be written before it is
 * named here), and the Audit page's filter offers exactly these, under these names.
 */

/** The groups in the order the filter shows them; within a group, the order of its actions. */
export const AUDIT_ACTION_GROUPS = [
  {
    group: 'Sign-in',
    actions: {
      'session.sign_in': 'Sign-in attempt',
      'session.sign_out': 'Signed out',
      'session.sign_out_all': 'Signed out everywhere',
    },
  },
  {
    group: 'Members and tokens',
    actions: {
      'member.add': 'Member added',
      'member.role': 'Member’s role changed',
      'member.remove': 'Member removed',
      'token.create': 'Access token created',
      'token.revoke': 'Access token revoked',
    },
  },
  {
    group: 'Vendor keys',
    actions: {
      'vendor_key.add': 'Vendor key added',
      'vendor_key.rotate': 'Vendor key rotated',
      'vendor_key.remove': 'Vendor key removed',
      'hub_secret.rotate': 'Hub secret rotated',
    },
  },
  {
    group: 'Vendor calls and decisions',
    actions: {
      'v1.pull': 'Items pulled',
      'v1.adopt': 'Adopt',
      'v1.dispute': 'Dispute',
      'decision.send': 'Decision sent to the vendor',
      'vote.adopt': 'Vote to adopt',
      'vote.dispute': 'Vote to dispute',
      'vote.recount': 'Votes counted again (overlap changed)',
    },
  },
  {
    group: 'Queue',
    actions: {
      'lease.take': 'Lease taken',
      'lease.release': 'Lease released',
      'lease.expire': 'Lease expired',
      'lease.revoke': 'Lease taken back',
      'lease.settings': 'Lease idle time set',
    },
  },
  {
    group: 'Budgets and holds',
    actions: {
      'budget.set': 'Budgets set',
      'hold.release': 'Hold released',
      'hold.drop': 'Hold dropped',
    },
  },
  {
    group: 'Lots',
    actions: {
      'lot.create': 'Lot drawn',
      'lot.update': 'Lot updated',
    },
  },
  {
    group: 'Team setup',
    actions: {
      'subscriptions.set': 'Subscriptions set',
      'settings.update': 'Settings changed',
      'overlap.set': 'Overlap set',
      'inbox.schedule': 'Scheduled pull set',
    },
  },
] as const;

// Distributes over the groups: the union of every group's action names.
type ActionsOf<G> = G extends { readonly actions: infer A } ? keyof A & string : never;

/** An action the hub writes: `appendAudit` takes nothing else. */
export type AuditAction = ActionsOf<(typeof AUDIT_ACTION_GROUPS)[number]>;

/** Every action, in the groups' order. */
export const AUDIT_ACTIONS = AUDIT_ACTION_GROUPS.flatMap((g) => Object.keys(g.actions)) as AuditAction[];

const LABELS = new Map<string, string>(AUDIT_ACTION_GROUPS.flatMap((g) => Object.entries(g.actions)));

/** A person's name for an action; an action this list does not know (an older hub's row) is shown as written. */
export const auditActionLabel = (action: string): string => LABELS.get(action) ?? action;

export const isAuditAction = (action: string): action is AuditAction => LABELS.has(action);
