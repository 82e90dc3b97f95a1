import { NoSubscriptions } from '../../../components/connection/no-subscriptions';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { useLocalScope, type Connection } from '../../../data';
import { countItems, localDb, localKey } from '../../../domain/store';

/** How many items the local store holds per subscription (read from its counts, never by counting rows). */
function useCounts(connection: Connection) {
  const { scope } = useLocalScope(connection);
  const ids = connection.subscriptions.map((s) => s.id);
  return useQuery({
    // Under these subscriptions' items (localKey): read again when the store says they changed.
    queryKey: [...localKey(scope, 'items', ids), 'counts'],
    queryFn: async () => new Map(await Promise.all(ids.map(async (id) => [id, await countItems(localDb(), scope!, id)] as const))),
    enabled: !!scope,
  });
}

/** The connection's subscriptions, each with how many items this device holds, opening its items view. */
export function ItemsIndex({ connection }: { connection: Connection }) {
  const counts = useCounts(connection);
  return (
    <div>
      <PageHeader
        title="Items"
        description="Everything delivered and kept on this device, per subscription: filter it, search it, and review or decide the matches."
      />
      {connection.subscriptions.length === 0 ? (
        <NoSubscriptions connectionId={connection.id} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {connection.subscriptions.map((s) => {
            const held = counts.data?.get(s.id);
            return (
              <li key={s.id}>
                <Panel className="flex h-full flex-col gap-2">
                  <div className="flex items-center gap-2">
                    <Badge tone={s.kind === 'live' ? 'info' : 'neutral'}>{s.kind}</Badge>
                    <code className="text-xs">{s.id}</code>
                  </div>
                  <p className="font-medium">{s.label ?? s.id}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {held
                      ? `${held.total.toLocaleString('en-US')} items kept, ${held.open.toLocaleString('en-US')} undecided`
                      : counts.isPending
                        ? 'Counting…'
                        : 'No items kept'}
                  </p>
                  <Link
                    to="/items/$subscriptionId"
                    params={{ subscriptionId: s.id }}
                    className="mt-auto self-start rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
                    aria-label={`Items of ${s.label ?? s.id}`}
                  >
                    Open items
                  </Link>
                </Panel>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
