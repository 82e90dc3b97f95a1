import { shortId, taskFrontier, taskName, topicName, verticalName, type Names } from '../../data';
import { TRIAGE_STATE_LABELS, TRIAGE_STATES, type ListFacet, type TriageState } from '../../domain/triage';

/** What a facet value reads as (a task's name, a vertical's name, a short topic) and its whole ID for the hover. */
export function facetValue(facet: ListFacet, value: string, names: Names): { label: string; title?: string } {
  switch (facet) {
    case 'state':
      return { label: TRIAGE_STATE_LABELS[value as TriageState] ?? value };
    case 'task': {
      const frontier = taskFrontier(names, value);
      return { label: taskName(names, value), title: `Task ${value}${frontier ? ` of ${frontier}` : ''}` };
    }
    case 'vertical':
      return { label: verticalName(names, value), title: `Vertical ${value}` };
    case 'topic':
      return { label: topicName(value), title: `Topic ${value}` };
    case 'campaign':
      return { label: shortId(value), title: `Campaign ${value}` };
    default:
      return { label: value };
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * A facet's values in an order a person scans: decision states in their fixed order, grades A→E,
 * everything else by what it reads as (names alphabetically), never by count, so values do not
 * jump around as other filters change their counts.
 */
export function sortFacetValues(facet: ListFacet, values: Iterable<string>, names: Names): string[] {
  const list = [...new Set(values)];
  if (facet === 'state') {
    const order = TRIAGE_STATES as readonly string[];
    return list.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
  if (facet === 'grade') return list.sort((a, b) => collator.compare(a, b));
  const labels = new Map(list.map((v) => [v, facetValue(facet, v, names).label]));
  return list.sort((a, b) => collator.compare(labels.get(a)!, labels.get(b)!) || collator.compare(a, b));
}
