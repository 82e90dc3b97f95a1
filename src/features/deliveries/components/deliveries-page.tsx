import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { SimpleTable } from '../../../components/ui/table';
import { LatestSelect } from '../../../components/ui/latest-select';
import { formatUtc, parseTimestamp, Time } from '../../../components/ui/time';
import { deliveriesQuery, subscriptionName, useNames, type Connection } from '../../../data';
import type { DeliveriesSearch } from '../search';

/** The organization's deliveries, newest first, with item counts and a status breakdown. */
export function DeliveriesPage({ connection, search }: { connection: Connection; search: DeliveriesSearch }) {
  const navigate = useNavigate({ from: '/deliveries/' });
  const { data } = useSuspenseQuery(deliveriesQuery(connection, search.limit));
  const deliveries = data.data;
  const complete = deliveries.length < search.limit;
  const names = useNames();
  return (
    <div>
      <PageHeader
        title="Deliveries"
        description={
          complete
            ? `All ${deliveries.length} deliveries of your organization, newest first.`
            : `The latest ${search.limit} deliveries of your organization, newest first. The service offers no paging here: older ones are not shown.`
        }
        actions={
          <LatestSelect
            label="How many deliveries"
            value={search.limit}
            options={[50, 100, LIMITS.deliveries.max]}
            onChange={(limit) => void navigate({ search: { limit }, replace: true })}
          />
        }
      />
      <SimpleTable caption="Deliveries" headers={['Delivered', 'Subscription', 'Items', 'Status']} empty="No deliveries yet." isEmpty={deliveries.length === 0}>
        {deliveries.map((d) => {
          const when = parseTimestamp(d.created_at);
          const name = subscriptionName(connection, d.subscription_id, d.vertical_id, names);
          return (
            <tr key={d.delivery_id} className="border-t border-slate-200 dark:border-slate-700">
              {/* The link comes first so that it stays on screen however narrow the window. */}
              <td className="px-3 py-2">
                <Link
                  to="/deliveries/$deliveryId"
                  params={{ deliveryId: d.delivery_id }}
                  className="text-brand-600 underline dark:text-brand-100"
                  aria-label={`Open delivery of ${when ? formatUtc(when) : d.created_at} (${name})`}
                  title={`Delivery ${d.delivery_id}`}
                >
                  <Time value={d.created_at} wrap />
                </Link>
              </td>
              <td className="px-3 py-2" title={`Subscription ${d.subscription_id}`}>
                {name}
              </td>
              <td className="px-3 py-2 tabular-nums">{d.item_count}</td>
              <td className="px-3 py-2">
                {d.status_counts ? (
                  <span className="flex flex-wrap gap-1">
                    <Badge>{d.status_counts.pending} pending</Badge>
                    <Badge tone="good">{d.status_counts.adopted} adopted</Badge>
                    <Badge tone="bad">{d.status_counts.disputed} disputed</Badge>
                  </span>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </SimpleTable>
    </div>
  );
}
