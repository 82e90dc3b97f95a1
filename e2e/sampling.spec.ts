import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { samplePlan } from '../src/features/sampling/plan';
import { wilsonInterval } from '../src/features/sampling/wilson';
import { formatMicros } from '../src/lib/money';
import { micros, serviceApi } from './support/api';
import { connectWith } from './support/console';
import { createKey, importFixture } from './support/service';

/**
 * A simulated subscription of its own, 200 items at fractional-cent prices: the lot, its sample
 * and the rest are all this spec's, and every item ends adopted (charged) exactly once.
 */
const SUB = 'sub_e2e_lot';
/** A second subscription, sampled from its delivery's page. */
const DELIVERED = 'sub_e2e_lot_delivery';
const PRICES = [0.017, 0.0123, 0.009999, 0.25];
const ITEMS = Array.from({ length: 200 }, (_, i) => ({ id: `lot-sim-${String(i).padStart(3, '0')}`, price: PRICES[i % PRICES.length]! }));
let key: string;

test.beforeAll(() => {
  importFixture('lot', {
    frontiers: [],
    tasks: [],
    submissions: [],
    verticals: [{ id: 'v-e2e-lot', slug: 'e2e-lot', name: 'Sampled lots', description: 'lot acceptance by sampling', base_price_usd: 0.01 }],
    items: ITEMS.map((item, i) => ({
      id: item.id,
      vertical_id: 'v-e2e-lot',
      topic_id: 'topic-e2e-lot',
      subscription_id: SUB,
      payload: { text: `sampled item ${i}` },
      quality_score: Math.round(((i * 53) % 100) + 1) / 100,
      quality_method: 'consensus',
      validator_count: 3,
      consensus_ratio: 0.67,
      unit_price_usd: item.price,
      created_at: '2026-03-03T00:00:00Z',
    })).concat(
      Array.from({ length: 30 }, (_, i) => ({
        id: `lot-del-${String(i).padStart(2, '0')}`,
        vertical_id: 'v-e2e-lot',
        topic_id: 'topic-e2e-lot',
        subscription_id: DELIVERED,
        payload: { text: `delivered item ${i}` },
        quality_score: 0.5,
        quality_method: 'consensus',
        validator_count: 3,
        consensus_ratio: 0.67,
        unit_price_usd: 0.0123,
        created_at: '2026-03-03T00:00:00Z',
      })),
    ),
    // An organization of its own: its receipts and deliveries stay off the demo's Usage and Deliveries pages, which other specs read.
    subscriptions: [
      { subscription_id: SUB, kind: 'simulated', vertical_id: 'v-e2e-lot', name: 'Sampled lots', org_id: 'org_e2e_lots' },
      { subscription_id: DELIVERED, kind: 'simulated', vertical_id: 'v-e2e-lot', name: 'Sampled delivery', org_id: 'org_e2e_lots' },
    ],
  });
  key = createKey('Lots', [SUB, DELIVERED]).key;
});

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** Decides every undecided item of the review's list by key (`a`), moving past decided ones with `j`; returns the IDs decided. */
async function adoptUndecidedByKeys(page: Page, expected: number, alreadyDecided: ReadonlySet<string>): Promise<string[]> {
  const title = page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  const decided: string[] = [];
  for (let presses = 0; decided.length < expected && presses < expected * 3; presses++) {
    const id = (await title.textContent())!.replace(/^Item /, '').trim();
    if (alreadyDecided.has(id) || decided.includes(id)) {
      await page.keyboard.press('j');
      await expect(title).not.toHaveText(new RegExp(`${id}$`));
      continue;
    }
    await page.keyboard.press('a');
    decided.push(id);
    if (decided.length < expected) await expect(title).not.toHaveText(new RegExp(`${id}$`));
  }
  return decided;
}

test('sample a lot of 200 simulated items with the zero-acceptance plan, review the sample by keys, accept the rest: receipts equal the preview, each item charged once', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  await connectWith(page, 'Lots', key, [{ id: SUB, kind: 'Simulated' }]);

  // The 200 items come into this browser through the UI.
  await page.goto(`/review/${SUB}?limit=200`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('200 items kept on this device')).toBeVisible();

  // Items → Sample… at 95 % and 5 %: the dialog names N, n and the formula before anything is drawn.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await page.getByRole('link', { name: `Items of ${SUB}`, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'items match' })).toHaveText('200 of 200 items match');
  await page.getByRole('button', { name: 'Sample…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample 200 undecided items' });
  await dialog.getByRole('radio', { name: /^Zero acceptance/ }).check();
  await expect(dialog.getByRole('radio', { name: '95 %' })).toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Tolerated defect rate (%)' })).toHaveValue('5');
  const plan = samplePlan({ lotSize: 200, confidencePct: 95, defectRateBp: 500 });
  expect(plan.sampleSize).toBe(51);
  const planned = dialog.getByRole('region', { name: 'Sampling plan' });
  await expect(planned).toContainText('Lot size (N)200');
  await expect(planned).toContainText(`Sample size (n)${plan.sampleSize}`);
  await expect(planned).toContainText(`Review ${plan.sampleSize} of the 200 items`);
  await expect(planned).toContainText('⌈ln(1−C) / ln(1−p)⌉ = 59');
  // A rate that is no rate draws nothing.
  const rate = dialog.getByRole('textbox', { name: 'Tolerated defect rate (%)' });
  await rate.fill('0');
  await expect(rate).toHaveAccessibleDescription('A percentage above 0 and below 100, at most two decimals.');
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeDisabled();
  await rate.fill('5');
  // Another confidence is another plan, at once.
  await dialog.getByRole('radio', { name: '99 %' }).check();
  await expect(planned).toContainText(`Sample size (n)${samplePlan({ lotSize: 200, confidencePct: 99, defectRateBp: 500 }).sampleSize}`);
  await dialog.getByRole('radio', { name: '95 %' }).check();
  await dialog.getByRole('button', { name: `Start: draw ${plan.sampleSize}` }).click();

  await expect(page).toHaveURL(/\/lots\/lot_[0-9a-f]{16}$/);
  const lotUrl = page.url();
  await expect(page.getByRole('heading', { name: `Lot · ${SUB}` })).toBeVisible();
  await expect(page.getByText(`0 of ${plan.sampleSize} reviewed`)).toBeVisible();
  const recommendation = page.getByRole('status', { name: 'Recommendation' });
  await expect(recommendation).toContainText('Lot: Not decided yet. Recommendation: Review the rest of the sample');
  // Nothing reviewed yet: the rest is not offered for acceptance, only one deliberate step away.
  await expect(page.getByRole('button', { name: 'Accept the rest' })).toBeHidden();
  await expect(
    page.getByText(`Review the sample first: the plan decides the rest once all ${plan.sampleSize} sampled items are reviewed (0 so far).`),
  ).toBeVisible();

  // Review exactly the sample, with the usual keys: adopt every sampled item.
  await page.getByRole('link', { name: 'Review the sample' }).click();
  await expect(page.getByText(new RegExp(`^Reviewing ${plan.sampleSize} items: the sample of lot`))).toBeVisible();
  const first = await adoptUndecidedByKeys(page, plan.sampleSize, new Set());
  await expect(page.getByText(`${plan.sampleSize} of ${plan.sampleSize} decided`)).toBeVisible();
  expect(new Set(first).size).toBe(plan.sampleSize);

  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
  const sampled = new Set(first);
  const toAccept = plan.sampleSize;

  // 0 of 51 defective: under the plan's own rule (c = 0) the lot is accepted; the interval is information only.
  await page.goBack();
  await expect(page.getByText(`${toAccept} of ${toAccept} reviewed`)).toBeVisible();
  const clean = wilsonInterval(0, plan.sampleSize);
  await expect(page.getByLabel('Observed defect rate')).toContainText(
    `Observed defect rate 0.0 %, 95 % Wilson interval ${pct(clean.lower)} – ${pct(clean.upper)}`,
  );
  await expect(recommendation).toContainText('Lot: Accepted. Recommendation: Accept the rest');
  await expect(recommendation).toContainText('Zero acceptance (c = 0)');

  // Accept the rest: the exact preview of the triage issue names the count and the exact charge.
  const rest = ITEMS.filter((item) => !sampled.has(item.id));
  const total = rest.reduce((sum, item) => sum + micros(item.price), 0);
  await page.getByRole('button', { name: 'Accept the rest' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Adopt ${rest.length} items?` });
  await expect(confirm).toContainText(formatMicros(total));
  await confirm.getByRole('button', { name: `Adopt ${rest.length} and pay ${formatMicros(total)}` }).click();
  await expect(page.getByRole('region', { name: 'Bulk decisions sent' })).toContainText(`${rest.length} of ${rest.length} confirmed`, { timeout: 90_000 });
  await expect(page.getByLabel('What was done with the rest')).toContainText(`${rest.length} decisions recorded, charging ${formatMicros(total)}`);

  // The service's receipts: the 200 newest of the organization are this lot's (nothing else adopts
  // meanwhile, and none of its items was adopted before), one per item; the rest cost the preview's total.
  const receipts = (await serviceApi(request, key).usage(200)).filter((r) => r.kind === 'adopt');
  expect(receipts.every((r) => r.subscription_id === SUB)).toBe(true);
  const perItem = new Map<string, number>();
  for (const r of receipts) perItem.set(r.item_id!, (perItem.get(r.item_id!) ?? 0) + 1);
  for (const item of ITEMS) expect(perItem.get(item.id), item.id).toBe(1);
  const restIds = new Set(rest.map((item) => item.id));
  const charged = receipts.filter((r) => restIds.has(r.item_id!)).reduce((sum, r) => sum + micros(r.amount_usd), 0);
  expect(charged).toBe(total);
  expect(await serviceApi(request, key).pending(SUB)).toHaveLength(0);

  // A reload finds the lot, its outcome and what was done.
  await page.reload();
  await expect(page).toHaveURL(lotUrl);
  await expect(page.getByText(`${toAccept} of ${toAccept} reviewed`)).toBeVisible();
  await expect(recommendation).toContainText('Recommendation: Accept the rest');
  await expect(page.getByLabel('What was done with the rest')).toContainText(`Accepted the rest on`);
  await expect(page.getByLabel('What was done with the rest')).toContainText(`charging ${formatMicros(total)}`);

  // The lot as a file: plan, sample with its decisions, outcome, action.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the lot (JSON)' }).click();
  const doc = JSON.parse(readFileSync((await (await download).path())!, 'utf8'));
  expect(doc.plan).toMatchObject({
    kind: 'zero-acceptance',
    lot_size: 200,
    confidence: 0.95,
    tolerated_defect_rate: 0.05,
    sample_size: plan.sampleSize,
    assumed_defects: 10,
  });
  expect(doc.sample).toHaveLength(toAccept);
  expect(new Set(doc.sample.map((s: { item_id: string }) => s.item_id))).toEqual(sampled);
  for (const s of doc.sample) expect(s.decision).toBe('adopt');
  expect(doc.outcome).toMatchObject({ reviewed: toAccept, defects: 0, decision: 'accepted', recommendation: 'accept' });
  expect(doc.action).toMatchObject({ decision: 'adopt', recorded: rest.length, total_micros_usd: total });

  // The lots list names it.
  await page.getByRole('link', { name: 'All lots' }).click();
  await expect(page.getByRole('link', { name: `Lot of 200 · ${SUB}` })).toBeVisible();
  await expect(page.getByText('Rest accepted')).toBeVisible();
});

test('sample a delivery from its page; one defect rejects the lot under its zero-acceptance plan, and no more sampling is offered (22.3)', async ({ page }) => {
  test.setTimeout(120_000);
  await connectWith(page, 'Lots', key, [{ id: DELIVERED, kind: 'Simulated' }]);
  await page.goto(`/review/${DELIVERED}?limit=30`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText('30 items kept on this device')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deliveries' }).click();
  // The row names the subscription; its ID is the cell's hover.
  await page
    .getByRole('row')
    .filter({ has: page.locator(`td[title="Subscription ${DELIVERED}"]`) })
    .getByRole('link', { name: /^Open delivery of / })
    .first()
    .click();
  await page.getByRole('button', { name: 'Sample this delivery…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sample 30 undecided items' });
  await dialog.getByRole('radio', { name: /^Zero acceptance/ }).check();
  const plan = samplePlan({ lotSize: 30, confidencePct: 95, defectRateBp: 500 });
  await expect(dialog.getByRole('region', { name: 'Sampling plan' })).toContainText(`Sample size (n)${plan.sampleSize}`);
  await dialog.getByRole('button', { name: `Start: draw ${plan.sampleSize}` }).click();
  await expect(page.getByText(/^Undecided items of delivery /)).toBeVisible();

  // Dispute the first sampled item, adopt the others.
  await page.getByRole('link', { name: 'Review the sample' }).click();
  await expect(page.getByText(new RegExp(`^Reviewing ${plan.sampleSize} items: the sample of lot`))).toBeVisible();
  const title = page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  await expect(title).toHaveText(/^Item lot-del-/);
  const disputed = (await title.textContent())!;
  await page.keyboard.press('d');
  await expect(page.getByRole('radio', { name: 'No code' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(title).not.toHaveText(disputed);
  await adoptUndecidedByKeys(page, plan.sampleSize - 1, new Set([disputed.replace(/^Item /, '')]));
  await expect(page.getByText(`${plan.sampleSize} of ${plan.sampleSize} decided`)).toBeVisible();

  await page.goBack();
  await expect(page.getByText(`${plan.sampleSize} of ${plan.sampleSize} reviewed`)).toBeVisible();
  const interval = wilsonInterval(1, plan.sampleSize);
  await expect(page.getByLabel('Observed defect rate')).toContainText(
    `Observed defect rate ${pct(1 / plan.sampleSize)}, 95 % Wilson interval ${pct(interval.lower)} – ${pct(interval.upper)}`,
  );
  const recommendation = page.getByRole('status', { name: 'Recommendation' });
  await expect(recommendation).toContainText('Lot: Rejected. Recommendation: Dispute the rest');
  await expect(recommendation).toContainText('one defect rejects it');
  await expect(page.getByRole('button', { name: /^Draw \d+ more$/ })).toHaveCount(0);
  await expect(page.getByText('The plan recommends: Dispute the rest, with a reason.')).toBeVisible();
  await expect(page.getByRole('button', { name: `Dispute the rest` })).toBeEnabled();
});
