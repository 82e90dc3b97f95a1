import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CREDENTIALS_FILE, type DemoCredentials, type Subscription } from '../../src/api/contract';
import { issueDashboardToken } from '../lib/jwt';
import { inTransaction, PRIVATE_FILE_MODE, type Db } from '../store/db';
import { createKey } from '../store/keys';
import { createLoaders, DEFAULT_ORG_KEY } from '../store/loaders';
import { insertReceipt } from '../store/receipts';
import { dataDirSecret } from '../store/secrets';
import { livePayload, simulatedPayload } from './payloads';
import { Random } from './random';

const DEMO_ORG = 'org_demo';
const OTHER_ORG = 'org_acme';

const FRONTIERS = [
  { frontier_id: '101', title: 'Urban street scenes', status: 'ONLINE' },
  { frontier_id: '102', title: 'Customer support conversations', status: 'ONLINE' },
  { frontier_id: '103', title: 'Retail receipts archive (2024)', status: 'OFFLINE' },
];

const TASKS = [
  { task_id: '1001', frontier_id: '101', name: 'Vehicle and pedestrian boxes', task_type: 'IMAGE_ANNOTATION', status: 'COLLECTING', weight: 5 },
  { task_id: '1002', frontier_id: '101', name: 'Road object outlines', task_type: 'IMAGE_SEGMENTATION', status: 'COLLECTING', weight: 3 },
  { task_id: '1003', frontier_id: '101', name: 'Scene conditions', task_type: 'IMAGE_CLASSIFICATION', status: 'COLLECTING', weight: 2 },
  { task_id: '1004', frontier_id: '102', name: 'Intent labels', task_type: 'TEXT_CLASSIFICATION', status: 'COLLECTING', weight: 4 },
  { task_id: '1005', frontier_id: '102', name: 'Location entities', task_type: 'NAMED_ENTITY_RECOGNITION', status: 'COLLECTING', weight: 3 },
  { task_id: '1006', frontier_id: '102', name: 'Conversation summaries', task_type: 'TEXT_GENERATION', status: 'COLLECTING', weight: 2 },
  { task_id: '1007', frontier_id: '103', name: 'Receipt line items', task_type: 'STRUCTURED_EXTRACTION', status: 'COMPLETED', weight: 2 },
  { task_id: '1008', frontier_id: '103', name: 'Receipt photo boxes', task_type: 'RECEIPT_BOXES', status: 'COMPLETED', weight: 1 },
];

const VERTICALS = [
  {
    slug: 'retail-shelf-audits',
    name: 'Retail shelf audits',
    description: 'Shelf photos with product boxes, checked by three validators.',
    base_price_micros: 12_500,
    topics: ['beverages', 'snacks', 'household'],
  },
  {
    slug: 'support-dialogues',
    name: 'Support dialogues',
    description: 'Multi-turn customer support dialogues with intent and outcome.',
    base_price_micros: 3_700,
    topics: ['billing', 'shipping', 'accounts'],
  },
  {
    slug: 'product-catalog',
    name: 'Product catalog records',
    description: 'Structured product records with attributes and variants.',
    base_price_micros: 250_000,
    topics: ['outdoor', 'kitchen', 'audio'],
  },
];

const GRADES: [number, string][] = [
  [0.9, 'A'],
  [0.8, 'B'],
  [0.7, 'C'],
  [0, 'D'],
];
const grade = (score: number) => GRADES.find(([min]) => score >= min)![1];
const PRICE_FACTORS = [1, 1, 1, 0.8, 1.2, 1.5, 2, 0.36];

const LIVE_SUBMISSIONS = 5_000;

/** Fills an empty data directory with the demo and writes its credentials next to the database. */
export async function seedDemo(db: Db, dataDir: string): Promise<DemoCredentials> {
  const random = new Random(20261121);
  const load = createLoaders(db);
  const subscriptions: Subscription[] = [
    { subscription_id: 'sub_live_streets', kind: 'live', frontier_id: '101', name: 'Street scenes (all tasks)' },
    { subscription_id: 'sub_live_support', kind: 'live', frontier_id: '102', name: 'Support text (intents and entities)' },
  ];

  inTransaction(db, () => {
    load.org(DEMO_ORG, 'Demo Labs');
    load.org(OTHER_ORG, 'Acme Vision');
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(DEFAULT_ORG_KEY, DEMO_ORG);
    FRONTIERS.forEach(load.frontier);
    TASKS.forEach(load.task);

    // Live submissions, interleaved across tasks in delivery order.
    const weighted = TASKS.flatMap((t) => Array<typeof t>(t.weight).fill(t));
    const start = Date.UTC(2026, 8, 1);
    for (let i = 0; i < LIVE_SUBMISSIONS; i++) {
      const task = random.pick(weighted);
      const score = Math.round((0.55 + random.next() * 0.45) * 1000) / 1000;
      const rating = random.int(1, 5);
      load.submission({
        submission_id: String(500_001 + i),
        task_id: task.task_id,
        frontier_id: task.frontier_id,
        campaign_id: ['cmp_2026_spring', 'cmp_2026_summer', 'cmp_2026_autumn'][i % 3 === 0 ? 0 : random.int(1, 2)]!,
        data: livePayload(task.task_type, i + 1, random),
        quality_score: score,
        quality_grade: grade(score),
        source: random.pick(['mobile_app', 'web_portal', 'partner_api']),
        // Spec 2.5: live timestamps carry no zone suffix.
        created_at: new Date(start + i * 9 * 60_000).toISOString().slice(0, 19),
        audit_rating: rating,
        audit_reason: rating <= 2 ? random.pick(['blurry image', 'label mismatch', 'incomplete spans']) : null,
      });
    }
    load.countSubmissions();
    load.subscription({ ...subscriptions[0]!, org_id: DEMO_ORG, name: subscriptions[0]!.name! });
    load.subscription({ ...subscriptions[1]!, org_id: DEMO_ORG, name: subscriptions[1]!.name!, task_ids: ['1004', '1005'] });

    // Verticals, their topics, and simulated items delivered in batches of 50.
    const verticalIds = VERTICALS.map(() => random.uuid());
    VERTICALS.forEach((v, index) => {
      load.vertical({ ...v, id: verticalIds[index]! });
      v.topics.forEach((topic) => load.topic(random.uuid(), verticalIds[index]!, topic));
    });
    const topicsOf = (verticalId: string) =>
      (db.prepare('SELECT topic_id FROM topics WHERE vertical_id = ? ORDER BY name').all(verticalId) as { topic_id: string }[]).map((t) => t.topic_id);
    const simulated = VERTICALS.map((v, index) => ({
      subscription_id: `sub_sim_${v.slug.split('-')[0]}`,
      vertical: v,
      vertical_id: verticalIds[index]!,
      org_id: DEMO_ORG,
      count: 300,
    }));
    simulated.push({ subscription_id: 'sub_acme_retail', vertical: VERTICALS[0]!, vertical_id: verticalIds[0]!, org_id: OTHER_ORG, count: 100 });
    const itemStart = Date.UTC(2026, 9, 1);
    let itemNumber = 0;
    for (const sub of simulated) {
      load.subscription({ subscription_id: sub.subscription_id, org_id: sub.org_id, kind: 'simulated', vertical_id: sub.vertical_id, name: sub.vertical.name });
      if (sub.org_id === DEMO_ORG) {
        subscriptions.push({ subscription_id: sub.subscription_id, kind: 'simulated', vertical_id: sub.vertical_id, name: sub.vertical.name });
      }
      const topics = topicsOf(sub.vertical_id);
      for (let batch = 0; batch * 50 < sub.count; batch++) {
        const deliveredAt = new Date(itemStart + (batch * 3 + simulated.indexOf(sub)) * 6 * 3_600_000);
        const deliveryId = random.uuid();
        load.delivery({ delivery_id: deliveryId, subscription_id: sub.subscription_id, vertical_id: sub.vertical_id, created_at: deliveredAt.toISOString() });
        for (let i = 0; i < 50 && batch * 50 + i < sub.count; i++) {
          itemNumber++;
          const validators = random.int(3, 7);
          const agreeing = random.int(Math.ceil(validators / 2), validators);
          load.item({
            id: random.uuid(),
            vertical_id: sub.vertical_id,
            topic_id: random.pick(topics),
            payload: simulatedPayload(sub.vertical.slug, itemNumber, random),
            quality_score: Math.round((0.6 + random.next() * 0.4) * 1000) / 1000,
            quality_method: random.pick(['consensus', 'consensus', 'expert_review']),
            validator_count: validators,
            consensus_ratio: Math.round((agreeing / validators) * 1000) / 1000,
            unit_price_micros: Math.round(sub.vertical.base_price_micros * random.pick(PRICE_FACTORS)),
            created_at: new Date(deliveredAt.getTime() - (50 - i) * 60_000).toISOString(),
            subscription_id: sub.subscription_id,
            delivery_id: deliveryId,
          });
        }
      }
    }

    // A little history: in each demo subscription's first delivery, five adopted
    // (charged, with receipts a day apart) and two disputed.
    for (const sub of simulated.filter((s) => s.org_id === DEMO_ORG)) {
      const first = db
        .prepare(`SELECT id, unit_price_micros, created_at FROM items WHERE subscription_id = ? ORDER BY seq LIMIT 7`)
        .all(sub.subscription_id) as { id: string; unit_price_micros: number; created_at: string }[];
      first.forEach((item, index) => {
        const decidedAt = new Date(Date.parse(item.created_at) + (index + 1) * 86_400_000).toISOString();
        const status = index < 5 ? 'adopted' : 'disputed';
        db.prepare('UPDATE items SET status = ?, decided_at = ? WHERE id = ?').run(status, decidedAt, item.id);
        if (status === 'adopted') {
          insertReceipt(db, {
            orgId: DEMO_ORG,
            subscriptionId: sub.subscription_id,
            kind: 'adopt',
            itemId: item.id,
            quantity: 1,
            amountMicros: item.unit_price_micros,
            createdAt: decidedAt,
          });
        }
      });
    }
  });

  const key = createKey(db, {
    name: 'Demo key',
    subscriptionIds: subscriptions.map((s) => s.subscription_id),
    expiresAt: null,
    dataAccess: true,
  });
  if ('refused' in key) throw new Error(`demo key: ${key.refused}`);
  const jwt = await issueDashboardToken(dataDirSecret(db, 'jwt_secret'), DEMO_ORG, 30 * 86_400_000);
  const credentials: DemoCredentials = { api_key: key.key, jwt, org_id: DEMO_ORG, subscriptions };
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  // The mode above applies only to a new file: one left by an earlier run is tightened too.
  chmodSync(file, PRIVATE_FILE_MODE);
  return credentials;
}

/**
 * True when this service seeded the demo into the data directory itself: only seedDemo makes the
 * demo organization the default one. A data directory that merely holds a credentials file (copied
 * in, or left beside a store made some other way) offers no demo connection.
 */
export function seededDemo(db: Db): boolean {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(DEFAULT_ORG_KEY) as { value: string } | undefined;
  return row?.value === DEMO_ORG;
}

/** True when the data directory holds no catalogue yet. */
export function isEmpty(db: Db): boolean {
  return db.prepare('SELECT 1 FROM frontiers LIMIT 1').get() === undefined;
}
