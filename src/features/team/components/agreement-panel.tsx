import { useQuery } from '@tanstack/react-query';
import type { AgreementFigures } from '../../../api/contract/hub-overlap';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { cellClass, rowClass, SimpleTable } from '../../../components/ui/table';
import { agreementQuery } from '../overlap-queries';

/*
 * Agreement between the team's reviewers (Statistics, hub mode): per task and per reviewer, the
 * share of agreeing pairs of votes and kappa (Cohen's for two raters, Fleiss' for more), which
 * discounts the agreement chance alone would give.
 */

export const percentText = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`);
const kappaText = (f: AgreementFigures) => (f.kappa === null ? '—' : `${f.kappa.toFixed(2)} (${f.method === 'cohen' ? 'Cohen' : 'Fleiss'})`);

/** `names`: the subscriptions' task names by id (their labels): a table of task names, not IDs. */
export function AgreementPanel({ names }: { names: ReadonlyMap<string, string> }) {
  const { data, error, refetch } = useQuery(agreementQuery());
  if (error) return <ErrorPanel error={error} onRetry={() => void refetch()} />;
  if (!data) return null;
  const numeric = `${cellClass} text-right font-mono tabular-nums`;
  const headers = [
    { label: 'Items', align: 'right' as const },
    { label: 'Reviewers', align: 'right' as const },
    { label: 'Agreement', align: 'right' as const },
    { label: 'Kappa', align: 'right' as const },
  ];
  const cells = (f: AgreementFigures) => (
    <>
      <td className={numeric}>{f.items}</td>
      <td className={numeric}>{f.raters}</td>
      <td className={numeric}>{percentText(f.percent)}</td>
      <td className={numeric}>{kappaText(f)}</td>
    </>
  );
  return (
    <section aria-labelledby="team-agreement" className="mt-6 flex flex-col gap-4">
      <h2 id="team-agreement" className="text-base font-semibold">
        Reviewers’ agreement
      </h2>
      <SimpleTable
        caption="Agreement by task"
        showCaption
        headers={['Task', ...headers]}
        empty="No item has two votes yet: set an overlap above 1 on the team’s Overlap page."
        isEmpty={data.subscriptions.length === 0}
      >
        {data.subscriptions.map((s) => (
          <tr key={s.subscription_id} className={rowClass}>
            <td className={cellClass}>{names.get(s.subscription_id) ?? s.subscription_id}</td>
            {cells(s)}
          </tr>
        ))}
      </SimpleTable>
      <SimpleTable
        caption="Agreement by reviewer"
        showCaption
        headers={['Reviewer', ...headers]}
        empty="No reviewer shares an item with another yet."
        isEmpty={data.reviewers.length === 0}
      >
        {data.reviewers.map((r) => (
          <tr key={r.member.id} className={rowClass}>
            <td className={`${cellClass} [overflow-wrap:anywhere]`}>{r.member.email ?? r.member.id}</td>
            {cells(r)}
          </tr>
        ))}
      </SimpleTable>
    </section>
  );
}
