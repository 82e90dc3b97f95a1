import type { DecisionGroup } from '../aggregate';

/** One colour per decision group, the same in every chart. */
export const GROUP_COLORS: Record<DecisionGroup, string> = { undecided: '#94a3b8', adopted: '#16a34a', disputed: '#dc2626', other: '#d97706' };
