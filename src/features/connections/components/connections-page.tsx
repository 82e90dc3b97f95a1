import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { useConnections } from '../../../data';
import { connectionStore, keyedQueryKey } from '../../../data';
import type { Connection } from '../../../data';
import { useConnectionLifecycle } from '../lifecycle';
import { ConnectForm, type SaveOutcome } from './connect-form';
import { JwtStatus } from '../../../components/connection/jwt-status';
import { SecretText } from '../../../components/connection/secret-text';

/**
 * Connections: add one, edit one (key, JWT or subscriptions, each alone), switch, disconnect
 * (secrets and cached data go), remove. `redirectTo` is where the user was going before being
 * sent here to connect: a same-origin path, already checked by the route.
 */
export function ConnectionsPage({
  editId,
  redirectTo,
  removeDialog,
  disconnectDialog,
  children,
}: {
  editId?: string;
  redirectTo?: string;
  /** Asks before disconnecting whether to keep or delete the organization's local data (given by the route). */
  disconnectDialog: (connection: Connection, onDone: () => void) => ReactNode;
  /** More about the active connection, below the form (the route gives what this device keeps). */
  children?: ReactNode;
  /** Asks before removing (given by the route: it knows the connection's unsent decisions); calls onDone. */
  removeDialog: (connection: Connection, onDone: (removed: boolean) => void) => ReactNode;
}) {
  const { connections, active, failures } = useConnections();
  const queryClient = useQueryClient();
  const lifecycle = useConnectionLifecycle();
  const navigate = useNavigate();
  const editing = editId ? connections.find((c) => c.id === editId) : undefined;
  const [removing, setRemoving] = useState<Connection | null>(null);
  const [disconnecting, setDisconnecting] = useState<Connection | null>(null);

  const saved = (connection: Connection, outcome: SaveOutcome) => {
    lifecycle.save(connection);
    // The header shows what was just observed; a kept key keeps what was seen before.
    if (outcome === 'verified') connectionStore.observe(connection.id, 'connected');
    if (outcome === 'unreachable') connectionStore.observe(connection.id, 'unreachable');
    // Where the user was going, or the day's work: Review (not Keys, a page visited once).
    if (redirectTo) void navigate({ href: redirectTo });
    else void navigate({ to: '/review' });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={editing ? `Edit ${editing.name}` : 'Connection'}
        description="Connect with an API key. Keys stay in this browser, masked unless you reveal them, and are sent only to the base URL you give."
      />
      {connections.length > 0 && !editing && (
        <Panel aria-labelledby="saved-connections">
          <h2 id="saved-connections" className="mb-3 font-semibold">
            Saved connections
          </h2>
          <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-700">
            {connections.map((connection) => {
              const failure = failures[connection.id];
              return (
                <li key={connection.id} className="flex flex-col gap-2 py-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{connection.name}</span>
                    {connection.id === active?.id && <Badge tone="info">Active</Badge>}
                    {!connection.apiKey && <Badge>Disconnected</Badge>}
                    {failure && <Badge tone="bad">{failure.code}</Badge>}
                    <Badge>{connection.remember ? 'Remembered on this device' : 'This tab only'}</Badge>
                  </div>
                  <div className="text-sm text-slate-600 dark:text-slate-400">{connection.baseUrl}</div>
                  {connection.apiKey && <SecretText value={connection.apiKey} label={`API key of ${connection.name}`} />}
                  {connection.verified && (
                    <p className="text-sm" aria-label={`Verified key of ${connection.name}`}>
                      Organization <code>{connection.verified.org_id}</code> · key “{connection.verified.key_name}” (<code>{connection.verified.key_id}</code>)
                    </p>
                  )}
                  <div className="flex flex-wrap gap-2 text-sm">
                    <JwtStatus token={connection.jwt} />
                    {connection.subscriptions.map((s) => (
                      <Badge key={s.id} tone={s.kind === 'live' ? 'info' : 'neutral'}>
                        {s.id} · {s.kind}
                      </Badge>
                    ))}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    {connection.id !== active?.id && (
                      <Button size="sm" onClick={() => lifecycle.activate(connection.id)}>
                        Make active
                      </Button>
                    )}
                    <Button
                      size="sm"
                      onClick={() => void navigate({ to: '/connection', search: { edit: connection.id } })}
                      aria-label={`${connection.apiKey ? 'Edit' : 'Reconnect'} ${connection.name}`}
                    >
                      {connection.apiKey ? 'Edit' : 'Reconnect'}
                    </Button>
                    {connection.apiKey && (
                      <Button size="sm" variant="danger" onClick={() => setDisconnecting(connection)} aria-label={`Disconnect ${connection.name}`}>
                        Disconnect
                      </Button>
                    )}
                    <Button size="sm" variant="ghost" onClick={() => setRemoving(connection)} aria-label={`Remove ${connection.name}`}>
                      Remove
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        </Panel>
      )}
      <Panel aria-labelledby="connect-heading">
        <h2 id="connect-heading" className="mb-3 font-semibold">
          {editing ? (editing.apiKey ? 'Key, JWT and subscriptions' : 'Connect again') : 'Add a connection'}
        </h2>
        <ConnectForm key={editing?.id ?? 'new'} editing={editing} onSaved={saved} />
      </Panel>
      {!editing && children}
      {disconnecting && disconnectDialog(disconnecting, () => setDisconnecting(null))}
      {removing &&
        removeDialog(connections.find((c) => c.id === removing.id) ?? removing, (removed) => {
          if (removed) queryClient.removeQueries({ queryKey: keyedQueryKey(removing) });
          setRemoving(null);
        })}
    </div>
  );
}
