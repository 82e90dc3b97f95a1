import { lazy, Suspense, useMemo } from 'react';
import { Panel } from '../../../components/ui/panel';
import type { LotPlan } from '../lot';
import { planNumbers } from '../decision';
import { ocCurve, type OcCurve } from '../oc';

const OcChart = lazy(() => import('./oc-chart'));
const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)} %`;

function planCurve(plan: LotPlan): OcCurve {
  const { ac } = planNumbers(plan);
  const aql = plan.kind === 'standard' ? Number(plan.aql) / 100 : null;
  return ocCurve({ sampleSize: plan.sampleSize, ac, lotSize: plan.lotSize }, aql);
}

/** The rows of the table: every fourth point of the curve, with the AQL and the RQL in their places. */
function tableRows(curve: OcCurve) {
  const rows = curve.points.filter((_, i) => i % 4 === 0).map((point) => ({ ...point, mark: '' }));
  if (curve.atAql) rows.push({ ...curve.atAql, mark: 'AQL' });
  rows.push({ ...curve.rql, mark: 'RQL (Pa 10 %)' });
  return rows.sort((a, b) => a.p - b.p);
}

/** The plan's operating characteristic: the chart (recharts, loaded with it) and the table of its numbers. */
export function OcPanel({ plan }: { plan: LotPlan }) {
  const curve = useMemo(() => planCurve(plan), [plan]);
  const rows = useMemo(() => tableRows(curve), [curve]);
  const { ac } = planNumbers(plan);
  const summary =
    (curve.atAql ? `At the AQL (${pct(curve.atAql.p, 2)} defective) a lot is accepted with probability ${pct(curve.atAql.pa)}; ` : '') +
    `a lot ${pct(curve.rql.p, 2)} defective (the rejectable quality level, RQL) is accepted only 10 % of the time.`;
  return (
    <Panel aria-labelledby="lot-oc" className="flex flex-col gap-2">
      <h2 id="lot-oc" className="font-semibold">
        Operating characteristic
      </h2>
      <p className="text-sm">
        The probability that this plan (sample {plan.sampleSize}, accept ≤ {ac}) accepts a lot, against the lot’s defect rate (
        {curve.method === 'hypergeometric' ? 'hypergeometric: the sample is more than a tenth of the lot' : 'binomial'}). {summary}
      </p>
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <Suspense
          fallback={
            <p role="status" className="h-64 text-sm">
              Drawing the curve…
            </p>
          }
        >
          <OcChart curve={curve} label={`Operating characteristic curve. ${summary}`} />
        </Suspense>
        <table aria-label="Operating characteristic" className="text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col" className="pr-3 font-medium">
                Lot defect rate
              </th>
              <th scope="col" className="pr-3 font-medium">
                Pa
              </th>
              <th scope="col" className="font-medium">
                <span className="sr-only">Mark</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.p}-${row.mark}`} className={row.mark ? 'font-semibold' : undefined}>
                <td className="pr-3 tabular-nums">{pct(row.p, 2)}</td>
                <td className="pr-3 tabular-nums">{pct(row.pa)}</td>
                <td>{row.mark}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
