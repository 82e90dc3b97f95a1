import { describe, expect, it } from 'vitest';
import { NO_NAMES, shortId, type Names } from '../../data';
import { facetValue, sortFacetValues } from './facet-values';

const names: Names = {
  tasks: new Map([
    ['1002', { name: 'Road object outlines', frontierId: '101' }],
    ['1001', { name: 'Vehicle and pedestrian boxes', frontierId: '101' }],
  ]),
  frontiers: new Map([['101', 'Urban street scenes']]),
  verticals: new Map([['0b6f1c2e-1111-4222-8333-444455556666', 'Retail shelf audits']]),
};

describe('facet values', () => {
  it('reads tasks and verticals by name, the ID in the hover; unnamed ones stay IDs, UUIDs shortened', () => {
    expect(facetValue('task', '1002', names)).toEqual({ label: 'Road object outlines', title: 'Task 1002 of Urban street scenes' });
    expect(facetValue('task', '9999', names).label).toBe('Task 9999');
    expect(facetValue('vertical', '0b6f1c2e-1111-4222-8333-444455556666', names).label).toBe('Retail shelf audits');
    expect(facetValue('topic', 'a1b2c3d4-1111-4222-8333-444455556666', NO_NAMES)).toEqual({
      label: 'Topic a1b2c3d4…',
      title: 'Topic a1b2c3d4-1111-4222-8333-444455556666',
    });
    expect(shortId('1002')).toBe('1002');
  });

  it('orders grades A→E and names alphabetically, whatever the counts', () => {
    expect(sortFacetValues('grade', ['C', 'A', 'E', 'B'], names)).toEqual(['A', 'B', 'C', 'E']);
    expect(sortFacetValues('task', ['1001', '1002'], names)).toEqual(['1002', '1001']);
    expect(sortFacetValues('state', ['failed', 'undecided', 'adopted'], names)).toEqual(['undecided', 'adopted', 'failed']);
  });
});
