import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { HUB_ROLES, type HubMember, type SignedInMember, type HubRole } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { hubApi } from '../api';
import { HUB_QUERY_KEY, membersQuery } from '../queries';
import { generatePassword, selectClass, ShownOnce } from './team-parts';

const ROLE_LABELS: Record<HubRole, string> = { admin: 'Admin', reviewer: 'Reviewer', viewer: 'Viewer' };

/** What the new role may do, said in the confirmation. */
const ROLE_MEANS: Record<HubRole, string> = {
  admin: 'An admin manages members, vendor keys, budgets and the team’s settings, and reviews.',
  reviewer: 'A reviewer pulls, takes batches and decides; they no longer manage the team.',
  viewer: 'A viewer reads everything and decides nothing: no pulls, batches, adopts or disputes.',
};

/** A role change waiting for the admin's confirmation: a stray keypress on the select must not demote anyone. */
interface RoleChange {
  member: HubMember;
  role: HubRole;
}

/** Members (admin): the list, add one with a generated password shown once, change a role, remove after a confirmation. */
export function MembersPage({ me }: { me: SignedInMember }) {
  const { data } = useSuspenseQuery(membersQuery());
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: HUB_QUERY_KEY });
  const [removing, setRemoving] = useState<HubMember | null>(null);
  const [changing, setChanging] = useState<RoleChange | null>(null);
  const setRole = useMutation({
    mutationFn: ({ member, role }: RoleChange) => hubApi.setRole(member.id, role),
    // The dialog closes once the list has the new role, so the select never flips back meanwhile.
    onSuccess: async () => {
      await refresh();
      setChanging(null);
    },
  });
  const remove = useMutation({
    mutationFn: (member: HubMember) => hubApi.removeMember(member.id),
    onSuccess: () => setRemoving(null),
    onSettled: refresh,
  });

  return (
    <>
      <PageHeader
        title="Members"
        description="Who may sign in to this hub, and what each may do. Removing a member or changing a role applies on their next request."
      />
      <AddMember onAdded={refresh} />
      <div className="mt-4">
        <SimpleTable caption="Members" headers={['Email', 'Role', 'Added', 'Actions']} empty="No members." isEmpty={data.members.length === 0}>
          {data.members.map((member) => (
            <tr key={member.id} className={rowClass}>
              <td className={`${cellClass} min-w-40 [overflow-wrap:anywhere]`}>
                {member.email}
                {member.id === me.id && <span className="ml-1 text-xs text-slate-500">(you)</span>}
              </td>
              <td className={cellClass}>
                <select
                  aria-label={`Role of ${member.email}`}
                  className={`${selectClass} min-w-28`}
                  // The role asked for shows while the confirmation is open; Cancel puts the select back.
                  value={changing?.member.id === member.id ? changing.role : member.role}
                  disabled={setRole.isPending}
                  onChange={(e) => {
                    const role = e.target.value as HubRole;
                    setRole.reset();
                    setChanging(role === member.role ? null : { member, role });
                  }}
                >
                  {HUB_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </select>
              </td>
              <td className={cellClass}>
                <Time value={member.created_at} />
              </td>
              <td className={cellClass}>
                <Button size="sm" variant="ghost" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </SimpleTable>
      </div>
      <ConfirmDialog
        open={changing !== null}
        title={`Change the role of ${changing?.member.email ?? ''}?`}
        confirmLabel={`Make ${changing ? ROLE_LABELS[changing.role] : ''}`}
        busy={setRole.isPending}
        error={setRole.error}
        onConfirm={() => changing && setRole.mutate(changing)}
        onCancel={() => {
          setChanging(null);
          setRole.reset();
        }}
      >
        {changing && (
          <>
            From <strong>{ROLE_LABELS[changing.member.role]}</strong> to <strong>{ROLE_LABELS[changing.role]}</strong>, from their next request.{' '}
            {ROLE_MEANS[changing.role]}
            {changing.member.id === me.id && ' This is your own role: you lose what it allowed at once.'}
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove member"
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        Their sessions end and their access tokens are revoked at once; their next request is refused. The audit log keeps what they did.
      </ConfirmDialog>
    </>
  );
}

function AddMember({ onAdded }: { onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<HubRole>('reviewer');
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null);
  const roleId = useId();
  const add = useMutation({
    mutationFn: (input: { email: string; role: HubRole; password: string }) => hubApi.addMember(input),
    onSuccess: (answer, input) => {
      setShown({ email: answer.member.email, password: input.password });
      setEmail('');
      onAdded();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(null);
    add.mutate({ email: email.trim(), role, password: generatePassword() });
  };
  return (
    <Panel aria-labelledby={`${roleId}-title`}>
      <h2 id={`${roleId}-title`} className="text-base font-semibold">
        Add a member
      </h2>
      <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-3">
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="min-w-56 flex-1"
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={roleId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            Role
          </label>
          <select id={roleId} className={selectClass} value={role} onChange={(e) => setRole(e.target.value as HubRole)}>
            {HUB_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={add.isPending || email.trim() === ''}>
          Add member
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">A password is generated and shown once: hand it to them over a channel you trust.</p>
      {add.error && (
        <div className="mt-3">
          <ErrorPanel error={add.error} />
        </div>
      )}
      {shown && (
        <div className="mt-3">
          <ShownOnce label="Password" value={shown.password} onDismiss={() => setShown(null)}>
            The password of {shown.email}. It is not stored anywhere readable and cannot be shown again.
          </ShownOnce>
        </div>
      )}
    </Panel>
  );
}
