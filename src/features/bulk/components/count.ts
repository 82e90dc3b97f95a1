/** "10000" → "10,000": counts of thousands of decisions are read at a glance. */
export const count = (n: number): string => n.toLocaleString('en-US');
