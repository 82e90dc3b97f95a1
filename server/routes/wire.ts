import {
  jsonTextTooDeep,
  microsToUsd,
  WITHHELD_PAYLOAD,
  type DeliveryItem,
  type LivePullForm,
  type Receipt,
  type SimulatedItem,
  type Vertical,
} from '../../src/api/contract';
import type { VerticalRecord } from '../store/catalog';
import type { LivePage, LiveSubmission } from '../store/live';
import type { ReceiptRecord } from '../store/receipts';
import type { ItemRecord } from '../store/simulated';

/** Store records as the wire has them (docs/contract.md): money in USD, internal columns dropped. */

export const receiptToWire = ({ amount_micros, ...row }: ReceiptRecord): Receipt => ({
  ...row,
  amount_usd: microsToUsd(amount_micros),
});

export const verticalToWire = ({ base_price_micros, ...rest }: VerticalRecord): Vertical => ({
  ...rest,
  base_price_usd: microsToUsd(base_price_micros),
});

export const itemToWire = (item: ItemRecord): SimulatedItem => ({
  id: item.id,
  vertical_id: item.vertical_id,
  topic_id: item.topic_id,
  payload: item.payload,
  quality_score: item.quality_score,
  quality_method: item.quality_method,
  validator_count: item.validator_count,
  consensus_ratio: item.consensus_ratio,
  unit_price_usd: microsToUsd(item.unit_price_micros),
  created_at: item.created_at,
});

export const deliveryItemToWire = (item: ItemRecord): DeliveryItem => ({
  ...itemToWire(item),
  status: item.status,
  delivery_id: item.delivery_id,
  decided_at: item.decided_at,
});

/**
 * A submission as wire JSON text. `data` is stored as JSON text already; splicing it in
 * instead of parsing and re-serialising halves the CPU cost of a 200-item page.
 */
const WITHHELD_JSON = JSON.stringify(WITHHELD_PAYLOAD);

const submissionJson = ({ seq: _seq, data, ...row }: LiveSubmission): string => {
  const head = JSON.stringify(row);
  // Spliced text is never parsed here, but the console would be: a too-deep one is withheld (simulated.ts).
  return `${head.slice(0, -1)},"data":${jsonTextTooDeep(data) ? WITHHELD_JSON : data}}`;
};

/** The live pull's body (spec 4.6) in the form the service was started with, as JSON text. */
export function livePageJson(page: LivePage, form: LivePullForm): string {
  const items = `[${page.items.map(submissionJson).join(',')}]`;
  const paging = JSON.stringify({
    count: page.items.length,
    has_more: page.has_more,
    next_cursor: page.next_cursor,
    receipt: page.receipt ? receiptToWire(page.receipt) : {},
  }).slice(1, -1);
  return form === 'flat'
    ? `{"success":true,"data":${items},${paging}}`
    : `{"success":true,"errorCode":null,"errorMessage":null,"data":{"items":${items},${paging}}}`;
}
