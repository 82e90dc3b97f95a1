import { useSuspenseQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/panel';
import { SimpleTable } from '../../../components/ui/table';
import { formatUsd } from '../../../lib/money';
import { verticalsQuery } from '../queries';
import type { Connection } from '../../../data';

/** Simulated verticals (spec 4.3), prices exact to the micro-dollar. */
export function VerticalsPage({ connection }: { connection: Connection | null }) {
  const { data } = useSuspenseQuery(verticalsQuery(connection));
  return (
    <div>
      <PageHeader title="Verticals" description="Simulated data families and their base prices. A unit price is not proof of a charge: see Usage." />
      <SimpleTable
        caption="Verticals"
        headers={['Name', 'Slug', 'Description', { label: 'Base price', align: 'right' }]}
        empty="No verticals."
        isEmpty={data.length === 0}
      >
        {data.map((v) => (
          <tr key={v.id} className="border-t border-slate-200 dark:border-slate-700">
            <td className="px-3 py-2 font-medium">{v.name}</td>
            <td className="px-3 py-2">
              <code className="text-xs">{v.slug}</code>
            </td>
            <td className="px-3 py-2 text-slate-700 dark:text-slate-300">{v.description}</td>
            <td className="px-3 py-2 text-right font-mono tabular-nums">{formatUsd(v.base_price_usd)}</td>
          </tr>
        ))}
      </SimpleTable>
    </div>
  );
}
