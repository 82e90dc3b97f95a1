import type { Names } from '../../data';
import type { StoredItem } from '../../domain/store';
import type { OutboxEntry } from '../../domain/outbox/model';
import type { TriageRow, TriageState } from '../../domain/triage';
import type { ExportRecord, RecordSource } from './export-record';
import { buildManifest, type ExportFormat } from './manifest';

/** Test helpers: a stored item row, a triage row around it, a source over fixed records. */
function storedItem(over: Partial<StoredItem> = {}): StoredItem {
  return {
    scope: 'S',
    subscriptionId: 'sub_live',
    itemId: '1',
    kind: 'live',
    seq: 1,
    receivedAt: Date.UTC(2026, 10, 1, 12),
    via: 'incremental',
    open: 1,
    serverDecision: null,
    taskId: '1002',
    campaignId: 'c-1',
    frontierId: '101',
    verticalId: null,
    topicId: null,
    qualityScore: 0.75,
    qualityGrade: 'B',
    qualityMethod: null,
    source: 'web',
    priceMicros: null,
    validatorCount: null,
    consensusRatio: null,
    createdAt: '2026-11-01T10:00:00',
    ...over,
  };
}

export function triageRow(
  item: Partial<StoredItem> = {},
  state: TriageState = 'undecided',
  entry?: Partial<OutboxEntry>,
  decidedAt: number | null = null,
): TriageRow {
  const stored = storedItem(item);
  return {
    item: stored,
    state,
    ...(entry
      ? {
          entry: {
            id: `e-${stored.itemId}`,
            scope: stored.scope,
            connectionId: 'c1',
            kind: stored.kind,
            itemId: stored.itemId,
            subscriptionId: stored.subscriptionId,
            decision: 'adopt',
            priceMicros: null,
            createdAt: decidedAt ?? 0,
            sendAfter: 0,
            state: 'sent',
            attempts: 1,
            nextAttemptAt: 0,
            ...entry,
          },
        }
      : {}),
    decidedAt,
  };
}

export const fixedSource = (records: readonly ExportRecord[]): RecordSource =>
  async function* () {
    yield* records;
  };

/** A manifest as a personal console writes it, or (`member`) as a team hub's member's does; `named`: its items and the service's names. */
export const testManifest = (format: ExportFormat, count = 0, member?: string, named?: { items: readonly TriageRow['item'][]; names: Names }) =>
  buildManifest({
    format,
    connection: {
      id: 'c1',
      name: 'Local demo',
      baseUrl: 'http://127.0.0.1:8787',
      apiKey: '',
      subscriptions: [],
      remember: false,
      ...(member ? { hub: { member: { id: 'm1', email: member, role: 'reviewer' as const } } } : {}),
    },
    subscription: { id: 'sub_live', kind: 'live' },
    selection: 'filter',
    filters: { grade: ['A', 'B'], quality_min: 0.6 },
    items: named?.items ?? Array.from({ length: count }, () => ({ taskId: null, verticalId: null })),
    names: named?.names,
    reasonCodes: ['wrong_label', 'missing_object'],
    now: new Date(Date.UTC(2026, 10, 23, 9, 30)),
  });

export async function collect(chunks: AsyncGenerator<string, unknown, undefined>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
