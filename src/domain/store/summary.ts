import type { DeliveryItem, LiveSubmission, SimulatedItem } from '../../api/contract';
import { usdToMicros } from '../../lib/money';
import type { StoredItem } from './db';

/** The flat, indexable part of a delivered record: what lists, filters and sorts read. */
export type ItemSummary = Omit<StoredItem, 'scope' | 'subscriptionId' | 'seq' | 'receivedAt' | 'via' | 'open' | 'page'>;

const text = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? null : String(value));
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function summaryOfLive(s: LiveSubmission): ItemSummary {
  return {
    itemId: s.submission_id,
    kind: 'live',
    serverDecision: s.consumer_feedback === 'adopt' || s.consumer_feedback === 'dispute' ? s.consumer_feedback : null,
    taskId: text(s.task_id),
    campaignId: text(s.campaign_id),
    frontierId: text(s.frontier_id),
    verticalId: null,
    topicId: null,
    qualityScore: number(s.quality_score),
    qualityGrade: text(s.quality_grade),
    qualityMethod: null,
    source: text(s.source),
    priceMicros: null,
    validatorCount: null,
    consensusRatio: null,
    createdAt: text(s.created_at),
  };
}

export function summaryOfSimulated(item: SimulatedItem | DeliveryItem): ItemSummary {
  const status = 'status' in item ? item.status : 'pending';
  return {
    itemId: item.id,
    kind: 'simulated',
    serverDecision: status === 'adopted' ? 'adopt' : status === 'disputed' ? 'dispute' : null,
    taskId: null,
    campaignId: null,
    frontierId: null,
    verticalId: text(item.vertical_id),
    topicId: text(item.topic_id),
    qualityScore: number(item.quality_score),
    qualityGrade: null,
    qualityMethod: text(item.quality_method),
    source: null,
    priceMicros: usdToMicros(item.unit_price_usd),
    validatorCount: number(item.validator_count),
    consensusRatio: number(item.consensus_ratio),
    createdAt: text(item.created_at),
  };
}
