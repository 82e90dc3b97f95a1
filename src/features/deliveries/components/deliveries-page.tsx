import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { inputClass } from '../../../components/ui/field';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { useActiveConnection, type Connection } from '../../connections';
import { deliveriesQuery } from '../queries';
import type { DeliveriesSearch } from '../search';

/** The organization's deliveries, newest first, with item counts and a status breakdown. */
export function DeliveriesPage({ search }: { search: DeliveriesSearch }) {
  const connection = useActiveConnection() as Connection;
  const navigate = useNavigate({ from: '/deliveries/' });
  const { data } = useSuspenseQuery(deliveriesQuery(connection, search.limit));
  const deliveries = data.data;
  const complete = deliveries.length < search.limit;
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
          <label className="flex items-center gap-2 text-sm">
            <span>Latest</span>
            <select
              aria-label="How many deliveries"
              className={inputClass}
              value={search.limit}
              onChange={(e) => void navigate({ search: { limit: Number(e.target.value) }, replace: true })}
            >
              {[50, 100, LIMITS.deliveries.max].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        }
      />
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Deliveries</caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              {['Delivered', 'Subscription', 'Items', 'Pending', 'Adopted', 'Disputed', 'Delivery'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {deliveries.length === 0 && (
              <tr>
                <td colSpan={7} className="px-3 py-6 text-center text-slate-500">
                  No deliveries yet.
                </td>
              </tr>
            )}
            {deliveries.map((d) => (
              <tr key={d.delivery_id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2 whitespace-nowrap">{d.created_at}</td>
                <td className="px-3 py-2">{d.subscription_id}</td>
                <td className="px-3 py-2 tabular-nums">{d.item_count}</td>
                <td className="px-3 py-2">{d.status_counts ? <Badge>{d.status_counts.pending}</Badge> : '—'}</td>
                <td className="px-3 py-2">{d.status_counts ? <Badge tone="good">{d.status_counts.adopted}</Badge> : '—'}</td>
                <td className="px-3 py-2">{d.status_counts ? <Badge tone="bad">{d.status_counts.disputed}</Badge> : '—'}</td>
                <td className="px-3 py-2">
                  <Link
                    to="/deliveries/$deliveryId"
                    params={{ deliveryId: d.delivery_id }}
                    className="text-brand-600 underline dark:text-brand-100"
                    aria-label={`Open delivery of ${d.created_at} (${d.subscription_id})`}
                  >
                    Open
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
