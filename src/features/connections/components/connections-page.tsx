import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/ui/button';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { useConnections } from '../hooks';
import { connectionStore, keyScope } from '../instance';
import type { Connection } from '../model';
import { ConnectForm } from './connect-form';
import { JwtStatus } from './jwt-status';
import { SecretText } from './secret-text';

/** Connections: add one, replace a key, switch, disconnect (secrets and cached data go). */
export function ConnectionsPage({ editId }: { editId?: string }) {
  const { connections, active, failures } = useConnections();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const editing = editId ? connections.find((c) => c.id === editId) : undefined;

  const saved = (connection: Connection) => {
    queryClient.removeQueries({ queryKey: keyScope(connection) });
    connectionStore.save(connection);
    void navigate({ to: '/keys' });
  };

  const disconnect = (connection: Connection) => {
    connectionStore.disconnect(connection.id);
    queryClient.removeQueries({ queryKey: keyScope(connection) });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={editing ? `Replace the key of ${editing.name}` : 'Connection'}
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
                      <Button size="sm" onClick={() => connectionStore.activate(connection.id)}>
                        Make active
                      </Button>
                    )}
                    <Button size="sm" onClick={() => void navigate({ to: '/connection', search: { edit: connection.id } })}>
                      {connection.apiKey ? 'Replace key' : 'Reconnect'}
                    </Button>
                    {connection.apiKey && (
                      <Button size="sm" variant="danger" onClick={() => disconnect(connection)} aria-label={`Disconnect ${connection.name}`}>
                        Disconnect
                      </Button>
                    )}
                    <Button size="sm" variant="ghost" onClick={() => connectionStore.remove(connection.id)} aria-label={`Remove ${connection.name}`}>
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
          {editing ? 'New key' : 'Add a connection'}
        </h2>
        <ConnectForm key={editing?.id ?? 'new'} editing={editing} onSaved={saved} />
      </Panel>
    </div>
  );
}
