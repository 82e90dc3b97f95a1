import { LIST_FACETS, RANGE_KEYS, splitList, type TriageFilters } from './search';
import { TRIAGE_STATE_LABELS, TRIAGE_STATES, type TriageState } from './triage-state';

const FACET_NAMES = { grade: 'grade', source: 'source', task: 'task', campaign: 'campaign', vertical: 'vertical', topic: 'topic' } as const;
const RANGE_NAMES = {
  quality: 'quality',
  price: 'price $',
  validators: 'validators',
  consensus: 'consensus',
  created: 'created',
  received: 'received',
} as const;

/** The filters in a few words, for "Reviewing 1,240 items: undecided, quality < 0.6". */
export function describeFilters(filters: TriageFilters): string {
  const parts: string[] = [];
  for (const facet of LIST_FACETS) {
    const values = splitList(filters[facet]);
    if (values.length === 0) continue;
    if (facet === 'state') {
      parts.push(
        values
          .filter((v): v is TriageState => (TRIAGE_STATES as readonly string[]).includes(v))
          .map((v) => TRIAGE_STATE_LABELS[v].toLowerCase())
          .join(' or '),
      );
    } else parts.push(`${FACET_NAMES[facet]} ${values.join(' or ')}`);
  }
  for (const [range, [minKey, maxKey]] of Object.entries(RANGE_KEYS) as [keyof typeof RANGE_KEYS, readonly [keyof TriageFilters, keyof TriageFilters]][]) {
    const min = filters[minKey];
    const max = filters[maxKey];
    const name = RANGE_NAMES[range];
    const dated = range === 'created' || range === 'received';
    if (min !== undefined && max !== undefined) parts.push(`${name} ${min}–${max}`);
    else if (min !== undefined) parts.push(dated ? `${name} from ${min}` : `${name} ≥ ${min}`);
    else if (max !== undefined) parts.push(dated ? `${name} until ${max}` : `${name} ≤ ${max}`);
  }
  if (filters.q?.trim()) parts.push(`containing “${filters.q.trim()}”`);
  return parts.filter(Boolean).join(', ');
}
