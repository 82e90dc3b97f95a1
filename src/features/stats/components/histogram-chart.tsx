import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { binLabel, DECISION_GROUP_LABELS, DECISION_GROUPS, type GroupCounts } from '../aggregate';
import { GROUP_COLORS } from './colors';

/** The quality-score histogram, stacked by decision. Its numbers are in the table beside it (the text alternative). */
export default function HistogramChart({ histogram, label }: { histogram: readonly GroupCounts[]; label: string }) {
  const data = histogram.map((bin, index) => ({ bin: binLabel(index), ...bin }));
  return (
    <figure role="img" aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b855" />
          <XAxis dataKey="bin" fontSize={11} interval="preserveStartEnd" />
          <YAxis fontSize={12} allowDecimals={false} width={48} />
          <Tooltip />
          <Legend />
          {DECISION_GROUPS.map((group) => (
            <Bar
              key={group}
              dataKey={group}
              name={group === 'other' ? 'Other' : DECISION_GROUP_LABELS[group]}
              stackId="decision"
              fill={GROUP_COLORS[group]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
