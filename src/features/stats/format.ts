/** "1234567" → "1,234,567": counts as every page writes them. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
