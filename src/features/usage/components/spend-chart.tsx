import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMicros } from '../../../lib/money';
import type { dailySpend } from '../model';

const COLORS = ['#2f6fed', '#16a34a', '#db2777', '#ea580c', '#7c3aed', '#0891b2', '#ca8a04'];

/**
 * Spend per day stacked by subscription. Bar heights use dollars as floats (drawing only);
 * every number shown in words comes from exact integer micro-USD.
 */
export default function SpendChart({ spend }: { spend: ReturnType<typeof dailySpend> }) {
  const data = spend.days.map((d) => ({
    day: d.day,
    ...Object.fromEntries(spend.subscriptions.map((s) => [s, (d.bySubscription[s] ?? 0) / 1_000_000])),
    __micros: d.bySubscription,
  }));
  const summary = spend.days.map((d) => `${d.day}: ${formatMicros(d.total)}`).join('; ');
  return (
    <figure role="img" aria-label={`Spend per day, stacked by subscription. ${summary || 'No spend.'}`} className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b855" />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis fontSize={12} tickFormatter={(v: number) => `$${v}`} width={70} />
          <Tooltip
            formatter={(_value, name, item) => {
              const micros = (item.payload as { __micros: Record<string, number> }).__micros[String(name)] ?? 0;
              return [formatMicros(micros), String(name)];
            }}
          />
          <Legend />
          {spend.subscriptions.map((s, i) => (
            <Bar key={s} dataKey={s} stackId="spend" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
