import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StoredItem } from '../../../domain/store';
import { facetCounts, type TriageFilters, type TriageRow } from '../../../domain/triage';
import { FacetPanel } from './facet-panel';

const row = (id: string, grade: string, quality: number, state: TriageRow['state'] = 'undecided'): TriageRow => ({
  item: {
    scope: 'S',
    subscriptionId: 'sub',
    itemId: id,
    kind: 'live',
    seq: Number(id),
    receivedAt: 0,
    via: 'incremental',
    open: 1,
    serverDecision: null,
    taskId: '1002',
    campaignId: null,
    frontierId: null,
    verticalId: null,
    topicId: null,
    qualityScore: quality,
    qualityGrade: grade,
    qualityMethod: null,
    source: 'web',
    priceMicros: null,
    validatorCount: null,
    consensusRatio: null,
    createdAt: null,
  } satisfies StoredItem,
  state,
  decidedAt: null,
});
const rows = [row('1', 'A', 0.9), row('2', 'A', 0.7, 'adopted'), row('3', 'B', 0.4), row('4', 'C', 0.2)];

function renderPanel(filters: TriageFilters) {
  const onChange = vi.fn();
  render(<FacetPanel facets={facetCounts(rows, filters)} filters={filters} onChange={onChange} />);
  return { onChange, user: userEvent.setup() };
}

describe('FacetPanel', () => {
  it('lists every value with its count under the other filters, and ticks add to the URL list', async () => {
    const { onChange, user } = renderPanel({ grade: 'A' });
    const gradeA = screen.getByRole('checkbox', { name: 'Grade A' });
    expect(gradeA).toBeChecked();
    expect(gradeA).toHaveAccessibleDescription('2 items');
    // Grade counts ignore the grade filter: B and C still show with their counts.
    expect(screen.getByRole('checkbox', { name: 'Grade B' })).toHaveAccessibleDescription('1 item');
    // Decision counts apply it: one undecided and one adopted among the grade A items.
    expect(screen.getByRole('checkbox', { name: 'Decision Undecided' })).toHaveAccessibleDescription('1 item');
    expect(screen.getByRole('checkbox', { name: 'Decision Adopted' })).toHaveAccessibleDescription('1 item');
    await user.click(screen.getByRole('checkbox', { name: 'Grade C' }));
    expect(onChange).toHaveBeenLastCalledWith({ grade: 'A,C' });
    await user.click(gradeA);
    expect(onChange).toHaveBeenLastCalledWith({ grade: undefined });
  });

  it('applies a typed quality bound on Enter, and shows the bounds as placeholders', async () => {
    const { onChange, user } = renderPanel({});
    const from = screen.getByRole('spinbutton', { name: 'Quality from' });
    expect(from).toHaveAttribute('placeholder', '0.2');
    expect(screen.getByRole('spinbutton', { name: 'Quality to' })).toHaveAttribute('placeholder', '0.9');
    await user.type(from, '0.5{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ quality_min: 0.5 }, { replace: true });
  });
});
