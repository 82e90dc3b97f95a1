import { NoSubscriptions } from '../../../components/connection/no-subscriptions';
import { Link } from '@tanstack/react-router';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import type { Connection } from '../../../data';

/** The active connection's subscriptions, each opening its review workspace. */
export function ReviewIndex({ connection }: { connection: Connection }) {
  const subscriptions = connection.subscriptions;
  return (
    <div>
      <PageHeader
        title="Review"
        description="Pull delivered items page by page, look at each one, adopt or dispute it. Decisions are saved on this device first, then sent."
      />
      {subscriptions.length === 0 ? (
        <NoSubscriptions connectionId={connection.id} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {subscriptions.map((s) => (
            <li key={s.id}>
              <Panel className="flex h-full flex-col gap-2">
                <div className="flex items-center gap-2">
                  <Badge tone={s.kind === 'live' ? 'info' : 'neutral'}>{s.kind}</Badge>
                  <code className="text-xs">{s.id}</code>
                </div>
                <p className="font-medium">{s.label ?? s.id}</p>
                <Link
                  to="/review/$subscriptionId"
                  params={{ subscriptionId: s.id }}
                  search={{ mode: 'new', limit: 50 }}
                  className="mt-auto self-start rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
                  aria-label={`Review ${s.label ?? s.id}`}
                >
                  Review
                </Link>
              </Panel>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
