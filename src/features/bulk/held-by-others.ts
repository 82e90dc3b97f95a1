import { heldByOthersResponse } from '../../api/contract/hub-leases';
import { hubCall } from '../../api/hub';

/**
 * Team hub: the subscription's undecided items another member holds under a live lease (item ID →
 * their email), which the hub would refuse this member's decision on (409 ITEM_LEASED). Asked when
 * a bulk decision is about to be confirmed, so the confirmation names them and the run skips them.
 */
export async function heldByOthers(subscriptionId: string): Promise<ReadonlyMap<string, string>> {
  const answer = await hubCall(heldByOthersResponse, `/queue/held?subscription_id=${encodeURIComponent(subscriptionId)}`);
  return new Map(answer.items.map((item) => [item.item_id, item.member.email]));
}
