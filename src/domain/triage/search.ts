import { z } from '../../api/contract/zod';
import { ISO_DAY } from '../../lib/day';
import { urlText } from '../../lib/search-params';

/**
 * The triage filters as URL search params. Every field falls back to "not set" on a bad value
 * (`.catch(undefined)`), so a hand-edited or stale link never breaks the page. Lists are comma
 * text (`?grade=A,B`), like review's task lists, so links stay readable; ranges are plain numbers;
 * prices are typed in USD and compared in integer micro-USD; dates are `YYYY-MM-DD` days.
 */
const list = urlText().pipe(z.string().max(4000)).optional().catch(undefined);
const num = z.coerce.number().pipe(z.number().finite()).optional().catch(undefined);
const day = urlText().pipe(z.string().regex(ISO_DAY)).optional().catch(undefined);

const SORT_FIELDS = ['id', 'state', 'task', 'grade', 'quality', 'source', 'price', 'received', 'created', 'validators', 'consensus'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** The filters alone: review takes these (its order is its own), the items view adds `sort`/`dir`. */
export const triageFilterShape = {
  state: list,
  quality_min: num,
  quality_max: num,
  grade: list,
  source: list,
  task: list,
  campaign: list,
  vertical: list,
  topic: list,
  price_min: num,
  price_max: num,
  validators_min: num,
  validators_max: num,
  consensus_min: num,
  consensus_max: num,
  created_from: day,
  created_to: day,
  received_from: day,
  received_to: day,
  q: urlText().pipe(z.string().max(200)).optional().catch(undefined),
};

export const triageSearchSchema = z.object({
  ...triageFilterShape,
  sort: z.enum(SORT_FIELDS).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
});

export type TriageSearch = z.infer<typeof triageSearchSchema>;
export type TriageFilters = Omit<TriageSearch, 'sort' | 'dir'>;

export const LIST_FACETS = ['state', 'grade', 'source', 'task', 'campaign', 'vertical', 'topic'] as const;
export type ListFacet = (typeof LIST_FACETS)[number];
export type RangeFacet = 'quality' | 'price' | 'validators' | 'consensus' | 'created' | 'received';

/** The URL keys of each range's bounds. */
export const RANGE_KEYS = {
  quality: ['quality_min', 'quality_max'],
  price: ['price_min', 'price_max'],
  validators: ['validators_min', 'validators_max'],
  consensus: ['consensus_min', 'consensus_max'],
  created: ['created_from', 'created_to'],
  received: ['received_from', 'received_to'],
} as const satisfies Record<RangeFacet, readonly [keyof TriageFilters, keyof TriageFilters]>;

/** Every filter key (what "clear filters" clears, and what tells whether any is set). */
export const FILTER_KEYS = Object.keys(triageFilterShape) as (keyof TriageFilters)[];

export function hasFilters(search: Partial<TriageFilters>): boolean {
  return FILTER_KEYS.some((key) => search[key] !== undefined && search[key] !== '');
}

/** The filters of a search, without anything else it holds. */
export function filtersOf(search: Partial<TriageFilters>): TriageFilters {
  const out: TriageFilters = {};
  for (const key of FILTER_KEYS) if (search[key] !== undefined) (out as Record<string, unknown>)[key] = search[key];
  return out;
}

/** "A,B" → ['A', 'B']; undefined or empty → []. */
export const splitList = (text: string | undefined): string[] => (text ? text.split(',').filter(Boolean) : []);
export const joinList = (values: readonly string[]): string | undefined => (values.length ? values.join(',') : undefined);
