import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { MICROS_PER_USD } from '../../../api/contract';
import { formatTotal, isOverRange } from '../../../lib/money';
import { subscriptionColor, type DailySpend } from '../model';

/** A bar's height in dollars; a total past the exact range is drawn at the range's end (its words say "over"). */
const drawn = (micros: number) => (isOverRange(micros) ? Math.sign(micros) * Number.MAX_SAFE_INTEGER : micros) / MICROS_PER_USD;

/**
 * Spend per day stacked by subscription, one bar slot per calendar day (empty days included),
 * each subscription in a colour of its own ID and named by `nameOf` in the legend and tooltip. Bar heights use dollars as floats (drawing only);
 * every number shown in words comes from exact integer micro-USD.
 */
export default function SpendChart({ spend, nameOf = (id) => id }: { spend: DailySpend; nameOf?: (subscriptionId: string) => string }) {
  const data = spend.days.map((d) => ({
    day: d.day,
    ...Object.fromEntries(spend.subscriptions.map((s) => [s, drawn(d.bySubscription[s] ?? 0)])),
    __micros: d.bySubscription,
  }));
  const withSpend = spend.days.filter((d) => Object.keys(d.bySubscription).length > 0);
  const summary = withSpend.map((d) => `${d.day}: ${formatTotal(d.total)}`).join('; ');
  const range = spend.days.length > 0 ? ` From ${spend.days[0]!.day} to ${spend.days.at(-1)!.day}.` : '';
  return (
    <figure
      role="img"
      aria-label={`Spend per day, stacked by subscription.${range} ${summary ? `Days with receipts: ${summary}` : 'No spend.'}`}
      className="h-72 w-full"
      data-days={spend.days.length}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b855" />
          <XAxis dataKey="day" fontSize={12} minTickGap={16} />
          <YAxis fontSize={12} tickFormatter={(v: number) => `$${v}`} width={60} />
          <Tooltip
            formatter={(_value, name, item) => {
              const micros = (item.payload as { __micros: Record<string, number> }).__micros[String(item.dataKey)] ?? 0;
              return [formatTotal(micros), String(name)];
            }}
          />
          <Legend />
          {spend.subscriptions.map((s) => (
            <Bar key={s} dataKey={s} name={nameOf(s)} stackId="spend" fill={subscriptionColor(s)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
