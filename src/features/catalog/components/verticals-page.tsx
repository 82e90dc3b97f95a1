import { useSuspenseQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/panel';
import { formatUsd } from '../../../lib/money';
import { useActiveConnection } from '../../connections';
import { verticalsQuery } from '../queries';

/** Simulated verticals (spec 4.3), prices exact to the micro-dollar. */
export function VerticalsPage() {
  const connection = useActiveConnection();
  const { data } = useSuspenseQuery(verticalsQuery(connection));
  return (
    <div>
      <PageHeader title="Verticals" description="Simulated data families and their base prices. A unit price is not proof of a charge: see Usage." />
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Verticals</caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              {['Name', 'Slug', 'Description', 'Base price'].map((h) => (
                <th key={h} scope="col" className={`px-3 py-2 font-semibold ${h === 'Base price' ? 'text-right' : ''}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </div>
    </div>
  );
}
