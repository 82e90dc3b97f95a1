import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_TOKEN_DAYS, type HubAccessToken, type HubMember, type SignedInMember, type TokenScope } from '../../../api/contract/hub';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialogs';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { TextField } from '../../../components/ui/field';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { hubApi } from '../api';
import { HUB_QUERY_KEY, tokensQuery } from '../queries';
import { selectClass, ShownOnce } from './team-parts';

const status = (token: HubAccessToken) =>
  token.revoked_at ? (
    <Badge tone="bad">Revoked</Badge>
  ) : Date.parse(token.expires_at) <= Date.now() ? (
    <Badge tone="warn">Expired</Badge>
  ) : (
    <Badge tone="good">Active</Badge>
  );

/** Personal access tokens: a member's own, for scripts. Created with a name, scope, subscriptions and expiry; shown once; revoked. */
export function TokensPage({ me }: { me: SignedInMember }) {
  const { data } = useSuspenseQuery(tokensQuery());
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...HUB_QUERY_KEY, 'tokens'] });
  const [revoking, setRevoking] = useState<HubAccessToken | null>(null);
  const revoke = useMutation({ mutationFn: (id: string) => hubApi.revokeToken(id), onSuccess: () => setRevoking(null), onSettled: refresh });
  return (
    <>
      <PageHeader
        title="Access tokens"
        description={
          <>
            Tokens for scripts and pipelines: <code className="font-mono">Authorization: Bearer ddh_pat_…</code> on this hub. A token acts as you, limited to
            its scope and subscriptions, until it expires or is revoked.
          </>
        }
      />
      <CreateToken role={me.role} onCreated={refresh} />
      <div className="mt-4">
        <SimpleTable
          caption="Your access tokens"
          headers={['Name', 'Scope', 'Subscriptions', 'Ends with', 'Expires', 'Last used', 'Status', 'Actions']}
          empty="No access token yet."
          isEmpty={data.access_tokens.length === 0}
        >
          {data.access_tokens.map((token) => (
            <tr key={token.id} className={rowClass}>
              <td className={`${cellClass} min-w-32 font-medium [overflow-wrap:anywhere]`}>{token.name}</td>
              <td className={cellClass}>{token.scope === 'decide' ? 'Read and decide' : 'Read'}</td>
              <td className={`${cellClass} min-w-40 [overflow-wrap:anywhere]`}>{token.subscriptions.includes('*') ? 'All' : token.subscriptions.join(', ')}</td>
              <td className={`${cellClass} font-mono`}>…{token.last4}</td>
              <td className={cellClass}>
                <Time value={token.expires_at} />
              </td>
              <td className={cellClass}>{token.last_used_at ? <Time value={token.last_used_at} /> : 'Never'}</td>
              <td className={cellClass}>{status(token)}</td>
              <td className={cellClass}>
                {!token.revoked_at && (
                  <Button size="sm" variant="ghost" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </SimpleTable>
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke token"
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onCancel={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        Scripts using it are refused from their next request.
      </ConfirmDialog>
    </>
  );
}

function CreateToken({ role, onCreated }: { role: HubMember['role']; onCreated: () => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [subscriptions, setSubscriptions] = useState('*');
  const [days, setDays] = useState('30');
  const [shown, setShown] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: hubApi.createToken,
    onSuccess: (answer) => {
      setShown(answer.token);
      setName('');
      onCreated();
    },
  });
  const dayCount = Number(days);
  const daysError = Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= MAX_TOKEN_DAYS ? undefined : `A whole number of days, 1 to ${MAX_TOKEN_DAYS}.`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (daysError) return;
    setShown(null);
    create.mutate({
      name: name.trim(),
      scope,
      subscriptions: subscriptions
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
      expires_in_days: dayCount,
    });
  };
  return (
    <Panel aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Create a token
      </h2>
      <form onSubmit={submit} className="mt-2 grid gap-3 md:grid-cols-4">
        <TextField label="Token name" required autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-scope`} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            Scope
          </label>
          <select id={`${id}-scope`} className={selectClass} value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
            <option value="read">Read</option>
            {/* A viewer decides nothing, so neither can a token of theirs. */}
            {role !== 'viewer' && <option value="decide">Read and decide</option>}
          </select>
        </div>
        <TextField
          label="Subscriptions"
          required
          autoComplete="off"
          value={subscriptions}
          onChange={(e) => setSubscriptions(e.target.value)}
          hint="IDs separated by commas, or *."
        />
        <TextField
          label="Expires in (days)"
          type="number"
          min={1}
          max={MAX_TOKEN_DAYS}
          required
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={daysError}
        />
        <div className="md:col-span-4">
          <Button type="submit" variant="primary" disabled={create.isPending || name.trim() === '' || daysError !== undefined}>
            Create token
          </Button>
        </div>
      </form>
      {create.error && (
        <div className="mt-3">
          <ErrorPanel error={create.error} />
        </div>
      )}
      {shown && (
        <div className="mt-3">
          <ShownOnce label="New token" value={shown} onDismiss={() => setShown(null)}>
            Copy it now: the hub keeps only its hash and cannot show it again.
          </ShownOnce>
        </div>
      )}
    </Panel>
  );
}
