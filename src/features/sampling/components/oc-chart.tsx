import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { OcCurve } from '../oc';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The OC curve; its numbers are in the table beside it (the text alternative). Loaded with the first chart. */
export default function OcChart({ curve, label }: { curve: OcCurve; label: string }) {
  const data = curve.points.map((point) => ({ p: point.p * 100, pa: point.pa * 100 }));
  return (
    <figure role="img" aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 16, right: 16, bottom: 16, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b855" />
          <XAxis
            dataKey="p"
            type="number"
            domain={[0, 'dataMax']}
            fontSize={11}
            tickFormatter={(v: number) => `${Number(v.toFixed(1))} %`}
            label={{ value: 'Lot defect rate', position: 'insideBottom', offset: -8, fontSize: 11 }}
          />
          <YAxis domain={[0, 100]} fontSize={11} width={56} tickFormatter={(v: number) => `${v} %`} />
          <Tooltip formatter={(value) => `${Number(value).toFixed(1)} %`} labelFormatter={(p) => `Defect rate ${Number(p).toFixed(2)} %`} />
          <Line dataKey="pa" name="Probability of acceptance" stroke="#2563eb" dot={false} strokeWidth={2} isAnimationActive={false} />
          {curve.atAql && (
            <ReferenceLine
              x={curve.atAql.p * 100}
              stroke="#16a34a"
              strokeDasharray="4 2"
              label={{ value: `AQL: Pa ${pct(curve.atAql.pa)}`, position: 'insideBottomLeft', fontSize: 11, fill: '#15803d' }}
            />
          )}
          <ReferenceLine
            x={curve.rql.p * 100}
            stroke="#dc2626"
            strokeDasharray="4 2"
            label={{ value: 'RQL: Pa 10 %', position: 'insideTopLeft', fontSize: 11, fill: '#b91c1c' }}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
