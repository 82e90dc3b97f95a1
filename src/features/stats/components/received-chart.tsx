import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Items received per day. Its numbers are in the table beside it (the text alternative). */
export default function ReceivedChart({ days, label }: { days: readonly { day: string; items: number }[]; label: string }) {
  return (
    <figure role="img" aria-label={label} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={days} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#94a3b855" />
          <XAxis dataKey="day" fontSize={11} minTickGap={16} />
          <YAxis fontSize={12} allowDecimals={false} width={48} />
          <Tooltip />
          <Bar dataKey="items" name="Items received" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
