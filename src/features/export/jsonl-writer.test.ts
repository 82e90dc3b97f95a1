import { describe, expect, it } from 'vitest';
import type { Names } from '../../data';
import { jsonlWriter } from './jsonl-writer';
import { collect, fixedSource, testManifest, triageRow } from './test-rows';

describe('JSONL writer', () => {
  it('writes the manifest, then each record exactly as received with its decision, reason and subscription', async () => {
    const decidedAt = Date.UTC(2026, 10, 20, 8, 0, 0);
    const first = { submission_id: '1', task_id: '1002', data: { text: 'héllo "quoted"\nline', nested: { deep: [1, { x: null }] } }, quality_score: 0.75 };
    const second = { submission_id: '2', task_id: '1002', data: { text: 'second' }, consumer_feedback: null };
    const records = [
      { row: triageRow({ itemId: '1' }, 'disputed', { decision: 'dispute', reason: 'blurry, "bad" crop' }, decidedAt), record: first },
      { row: triageRow({ itemId: '2', seq: 2 }), record: second },
    ];
    const text = await collect(jsonlWriter.write(testManifest('jsonl', 2), fixedSource(records)));
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const manifest = JSON.parse(lines[0]!) as { manifest: Record<string, unknown> };
    expect(manifest.manifest).toMatchObject({
      format: 'jsonl',
      subscription: { id: 'sub_live', kind: 'live' },
      filters: { grade: ['A', 'B'], quality_min: 0.6 },
      count: 2,
      reason_codes: ['wrong_label', 'missing_object'],
      created_at: '2026-11-23T09:30:00.000Z',
    });
    expect(JSON.parse(lines[1]!)).toEqual({
      subscription_id: 'sub_live',
      item_id: '1',
      kind: 'live',
      task_name: null,
      vertical_name: null,
      state: 'disputed',
      decision: 'dispute',
      decided_at: '2026-11-20T08:00:00.000Z',
      decided_by: null,
      reason: 'blurry, "bad" crop',
      reason_code: 'other',
      record: first,
    });
    expect(JSON.parse(lines[2]!)).toEqual({
      subscription_id: 'sub_live',
      item_id: '2',
      kind: 'live',
      task_name: null,
      vertical_name: null,
      state: 'undecided',
      decision: null,
      decided_at: null,
      decided_by: null,
      reason: null,
      reason_code: null,
      record: second,
    });
  });

  it('names each item’s task and vertical as the service published them, and the manifest lists those names only', async () => {
    const names: Names = {
      tasks: new Map([
        ['1002', { name: 'Road object outlines', frontierId: 'f1' }],
        ['9999', { name: 'A task nobody exports', frontierId: 'f1' }],
      ]),
      frontiers: new Map([['f1', 'Streets']]),
      verticals: new Map([['3f2a9c1e-0000-4000-8000-000000000001', 'Retail shelves']]),
    };
    const rows = [
      triageRow({ itemId: 'a', taskId: '1002' }),
      triageRow({ itemId: 'b', taskId: '1003' }),
      // An ID named like one of Object's own members is an ID like any other: unnamed here.
      triageRow({ itemId: 'p', taskId: 'constructor', verticalId: '__proto__' }),
      triageRow({ itemId: 'c', kind: 'simulated', taskId: null, verticalId: '3f2a9c1e-0000-4000-8000-000000000001' }),
    ];
    const manifest = testManifest('jsonl', rows.length, undefined, { items: rows.map((r) => r.item), names });
    const lines = (await collect(jsonlWriter.write(manifest, fixedSource(rows.map((row) => ({ row, record: {} }))))))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]!.manifest).toMatchObject({
      names: { tasks: { '1002': 'Road object outlines' }, verticals: { '3f2a9c1e-0000-4000-8000-000000000001': 'Retail shelves' } },
    });
    expect(lines.slice(1).map((l) => [l.item_id, l.task_name, l.vertical_name])).toEqual([
      ['a', 'Road object outlines', null],
      ['b', null, null],
      ['p', null, null],
      ['c', null, 'Retail shelves'],
    ]);
  });

  it('names who decided on a team hub: the teammate the hub named, else the member who exported; nobody for what only the service reported', async () => {
    const rows = [
      triageRow({ itemId: 'mine' }, 'adopted', { decision: 'adopt' }, 1),
      triageRow({ itemId: 'theirs' }, 'adopted', { state: 'decided-team', decision: 'adopt', decidedBy: 'ana@team.test' }, 1),
      triageRow({ itemId: 'vendor', serverDecision: 'adopt' }, 'adopted'),
      triageRow({ itemId: 'open' }),
    ];
    const text = await collect(jsonlWriter.write(testManifest('jsonl', rows.length, 'me@team.test'), fixedSource(rows.map((row) => ({ row, record: {} })))));
    const [head, ...lines] = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect((head!.manifest as { connection: { member: string } }).connection.member).toBe('me@team.test');
    expect(lines.map((l) => [l.item_id, l.decided_by])).toEqual([
      ['mine', 'me@team.test'],
      ['theirs', 'ana@team.test'],
      ['vendor', null],
      ['open', null],
    ]);
  });

  it('writes the reason’s code (a code of the manifest’s list), "other" for a reason naming none, null without one', async () => {
    const rows = [
      triageRow({ itemId: 'a' }, 'disputed', { decision: 'dispute', reason: 'missing_object: tail not boxed' }, 1),
      triageRow({ itemId: 'b' }, 'disputed', { decision: 'dispute', reason: 'wrong_label' }, 1),
      triageRow({ itemId: 'c' }, 'waiting', { state: 'grace', decision: 'dispute', reason: 'duplicate' }, 1),
      triageRow({ itemId: 'd' }, 'disputed', { decision: 'dispute' }, 1),
      triageRow({ itemId: 'e' }, 'adopted', { decision: 'adopt' }, 1),
    ];
    const text = await collect(jsonlWriter.write(testManifest('jsonl', rows.length), fixedSource(rows.map((row) => ({ row, record: {} })))));
    const lines = text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { item_id: string; reason: string | null; reason_code: string | null });
    expect(lines.map((l) => [l.item_id, l.reason, l.reason_code])).toEqual([
      ['a', 'missing_object: tail not boxed', 'missing_object'],
      ['b', 'wrong_label', 'wrong_label'],
      // Not one of the manifest's codes.
      ['c', 'duplicate', 'other'],
      ['d', null, null],
      ['e', null, null],
    ]);
  });

  it('reports how many items it wrote', async () => {
    const generator = jsonlWriter.write(testManifest('jsonl', 1), fixedSource([{ row: triageRow(), record: { data: {} } }]));
    let step = await generator.next();
    while (!step.done) step = await generator.next();
    expect(step.value).toEqual({ written: 1, leftOut: 0 });
  });

  it('takes a decision the service reported (no date here) and a waiting one (recorded, not yet confirmed)', async () => {
    const text = await collect(
      jsonlWriter.write(
        testManifest('jsonl', 3),
        fixedSource([
          { row: triageRow({ itemId: 'a', serverDecision: 'adopt' }, 'adopted'), record: { decided_at: '2026-11-02T00:00:00Z' } },
          { row: triageRow({ itemId: 'b' }, 'waiting', { state: 'grace', decision: 'adopt' }, 5), record: {} },
          { row: triageRow({ itemId: 'c' }, 'discarded', { state: 'discarded', decision: 'dispute', reason: 'x' }, 6), record: {} },
        ]),
      ),
    );
    const [, a, b, c] = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(a).toMatchObject({ decision: 'adopt', decided_at: '2026-11-02T00:00:00Z', state: 'adopted' });
    expect(b).toMatchObject({ decision: 'adopt', decided_at: new Date(5).toISOString(), state: 'waiting' });
    expect(c).toMatchObject({ decision: null, decided_at: null, reason: null, state: 'discarded' });
  });
});
