import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inTransaction, openDb, type Db } from '../store/db';
import { createLoaders } from '../store/loaders';
import { getSubscription, type SubscriptionRow } from '../store/subscriptions';

/**
 * A fresh data directory with a small known catalogue, for testing the store without HTTP:
 * two organizations, a live frontier (101) with tasks 1001 and 1002, a live subscription
 * narrowed to task 1001 and one covering the whole frontier, and a simulated delivery of
 * three pending items per organization.
 */
export interface TempStore {
  db: Db;
  subscription: (id: string) => SubscriptionRow;
  close: () => void;
}

export const ORG = 'org_a';
export const OTHER_ORG = 'org_b';
export const ITEM_PRICE_MICROS = 12_500;

export function openTempStore(): TempStore {
  const dataDir = mkdtempSync(join(tmpdir(), 'dds-store-'));
  const db = openDb(dataDir);
  const load = createLoaders(db);
  inTransaction(db, () => {
    load.org(ORG, 'Org A');
    load.org(OTHER_ORG, 'Org B');
    load.frontier({ frontier_id: '101', title: 'Streets', status: 'ONLINE' });
    load.frontier({ frontier_id: '102', title: 'Rivers', status: 'OFFLINE' });
    for (const task_id of ['1001', '1002']) {
      load.task({ task_id, frontier_id: '101', name: `Task ${task_id}`, task_type: 'label', status: 'ONLINE' });
    }
    load.task({ task_id: '2001', frontier_id: '102', name: 'Task 2001', task_type: 'label', status: 'ONLINE' });
    for (let n = 1; n <= 6; n++) {
      load.submission({
        submission_id: `s${n}`,
        task_id: n % 2 ? '1001' : '1002',
        frontier_id: '101',
        data: { n },
        quality_score: 0.9,
        quality_grade: 'A',
        source: 'test',
        created_at: `2026-01-0${n}T00:00:00Z`,
      });
    }
    load.countSubmissions();
    load.subscription({ subscription_id: 'live_all', org_id: ORG, kind: 'live', frontier_id: '101', name: 'All' });
    load.subscription({
      subscription_id: 'live_1001',
      org_id: ORG,
      kind: 'live',
      frontier_id: '101',
      name: 'Task 1001 only',
      task_ids: ['1001'],
    });
    load.vertical({ id: 'v1', slug: 'retail', name: 'Retail', description: 'Shops', base_price_micros: 10_000 });
    load.topic('t1', 'v1', 'Shelves');
    for (const org of [ORG, OTHER_ORG]) {
      load.subscription({ subscription_id: `sim_${org}`, org_id: org, kind: 'simulated', vertical_id: 'v1', name: 'Sim' });
      load.delivery({ delivery_id: `d_${org}`, subscription_id: `sim_${org}`, vertical_id: 'v1', created_at: '2026-01-01T00:00:00Z' });
      for (let n = 1; n <= 3; n++) {
        load.item({
          id: `${org}_i${n}`,
          vertical_id: 'v1',
          topic_id: 't1',
          payload: { n },
          quality_score: 0.8,
          quality_method: 'consensus',
          validator_count: 3,
          consensus_ratio: 1,
          unit_price_micros: ITEM_PRICE_MICROS,
          created_at: '2026-01-01T00:00:00Z',
          subscription_id: `sim_${org}`,
          delivery_id: `d_${org}`,
        });
      }
    }
  });
  return {
    db,
    subscription: (id) => {
      const sub = getSubscription(db, id);
      if (!sub) throw new Error(`fixture has no subscription ${id}`);
      return sub;
    },
    close: () => {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
