import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState, type ComponentType } from 'react';
import { Button } from '../../../components/ui/button';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { Time } from '../../../components/ui/time';
import { formatMicros, sumMicros } from '../../../lib/money';
import { Total } from '../../../components/ui/total';
import { shortId, subscriptionName, useNames, type Connection, type ConnectionSubscription } from '../../../data';
import { CopyId } from '../../../components/ui/copy-id';
import { formatUtc, parseTimestamp } from '../../../components/ui/time';
import { useOutbox, useOutboxEntries } from '../../../data';
import type { Decision } from '../../../domain/outbox/model';
import { displayState, entriesByItem, fromSimulated, ItemContent, itemSummary, STATE_LABELS } from '../../review';
import { deliveriesQuery, deliveryItemsQuery } from '../../../data';
import { LIMITS } from '../../../api/contract';

/** The action that samples a delivery's items (the sampling feature's, composed by the route). */
type SampleDeliveryAction = ComponentType<{ connection: Connection; subscription: ConnectionSubscription; deliveryId: string; itemIds: readonly string[] }>;

/** One delivery's items: each expands into the payload viewer and can be decided through the outbox. */
export function DeliveryPage({ connection, deliveryId, SampleAction }: { connection: Connection; deliveryId: string; SampleAction: SampleDeliveryAction }) {
  const { data } = useSuspenseQuery(deliveryItemsQuery(connection, deliveryId));
  const { data: recent } = useSuspenseQuery(deliveriesQuery(connection, LIMITS.deliveries.max));
  const delivery = recent.data.find((d) => d.delivery_id === deliveryId);
  const outbox = useOutbox();
  const entries = useOutboxEntries(connection.id);
  const byItem = useMemo(() => entriesByItem(entries), [entries]);
  const subscriptionId = delivery?.subscription_id;
  const items = data.data.map((item) => fromSimulated(item, subscriptionId ?? ''));
  // The service has the last word on scope; we only warn when we know the key does not cover it.
  const covered = !subscriptionId || connection.subscriptions.some((s) => s.id === subscriptionId);
  const subscription = connection.subscriptions.find((s) => s.id === subscriptionId);
  const itemIds = useMemo(() => data.data.map((item) => item.id), [data.data]);
  const total = sumMicros(items.map((i) => i.priceMicros ?? 0));
  // Content renders when an item is first opened: a delivery can hold many heavy payloads.
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const names = useNames();
  const name = subscriptionId ? subscriptionName(connection, subscriptionId, delivery?.vertical_id, names) : null;
  const when = delivery ? parseTimestamp(delivery.created_at) : null;
  // Named by what a person reads (when, for which subscription); the ID is a copy away.
  const title = when ? `Delivery of ${formatUtc(when)}` : `Delivery ${shortId(deliveryId)}`;

  const decide = (index: number, decision: Decision) => {
    const item = items[index]!;
    outbox.enqueue(connection.id, {
      kind: 'simulated',
      itemId: item.id,
      subscriptionId: item.subscriptionId,
      decision,
      priceMicros: decision === 'adopt' ? item.priceMicros : null,
    });
  };

  return (
    <div>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/deliveries" search={{ limit: 50 }} className="text-brand-600 underline dark:text-brand-100">
          Deliveries
        </Link>{' '}
        / <span title={deliveryId}>{when ? formatUtc(when) : shortId(deliveryId)}</span>
      </nav>
      <PageHeader
        title={title}
        description={
          <>
            {delivery && (
              <>
                <span title={`Subscription ${delivery.subscription_id}`}>{name}</span> · delivered <Time value={delivery.created_at} /> ·{' '}
              </>
            )}
            {items.length} items · listed prices <Total micros={total} /> (a price is not a charge: see Usage) · ID{' '}
            <CopyId id={deliveryId} label="delivery ID" short={shortId(deliveryId)} />
          </>
        }
        actions={subscription && <SampleAction connection={connection} subscription={subscription} deliveryId={deliveryId} itemIds={itemIds} />}
      />
      <ul className="flex flex-col gap-2" aria-label="Items of this delivery">
        {items.map((item, index) => {
          const state = displayState(item, byItem.get(item.id));
          return (
            <li key={item.key} className="rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
              <details onToggle={(e) => e.currentTarget.open && setOpened((o) => new Set(o).add(item.key))}>
                <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-sm">
                  <span className="font-medium" title={item.title}>
                    Item {shortId(item.id)}
                  </span>
                  <span className="text-slate-600 dark:text-slate-400">{itemSummary(item, names)}</span>
                  <Badge
                    tone={
                      state === 'adopted'
                        ? 'good'
                        : state === 'disputed' || state === 'failed'
                          ? 'bad'
                          : state === 'waiting' || state === 'held'
                            ? 'warn'
                            : 'neutral'
                    }
                  >
                    {STATE_LABELS[state]}
                  </Badge>
                  <span className="ml-auto font-mono text-xs">{item.priceMicros !== null ? formatMicros(item.priceMicros) : ''}</span>
                </summary>
                <div className="flex flex-col gap-3 border-t border-slate-200 p-3 dark:border-slate-700">
                  {state === 'new' && (
                    <div className="flex flex-wrap items-center gap-2">
                      {covered ? (
                        <>
                          <Button
                            variant="adopt"
                            size="sm"
                            onClick={() => decide(index, 'adopt')}
                            aria-label={`Adopt ${item.title} for ${formatMicros(item.priceMicros ?? 0)}`}
                          >
                            Adopt
                          </Button>
                          <span className="text-xs">charges {formatMicros(item.priceMicros ?? 0)}</span>
                          <Button variant="danger" size="sm" onClick={() => decide(index, 'dispute')} aria-label={`Dispute ${item.title}`}>
                            Dispute
                          </Button>
                        </>
                      ) : (
                        <span className="text-xs text-slate-600 dark:text-slate-400">Add subscription {subscriptionId} to this connection to decide here.</span>
                      )}
                    </div>
                  )}
                  {state === 'waiting' && (
                    <Button size="sm" onClick={() => outbox.undoLast(connection.id)}>
                      Undo
                    </Button>
                  )}
                  {opened.has(item.key) && <ItemContent item={item} baseUrl={connection.baseUrl} />}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
