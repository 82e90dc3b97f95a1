import { expect, test, type Page } from '@playwright/test';
import { samplePlan } from '../src/features/sampling/plan';
import { hubAs, hubContext, signInThroughForm, startE2eHub, type E2eHub } from './support/hub';

/*
 * Sampling lots are the team's, kept on the hub (`--demo --static dist`): reviewer A draws a lot
 * in the console; reviewer B, in another browser, sees it with the same sample and decides the
 * sampled items; A sees the outcome (B's decisions are not in A's browser: the hub's are counted)
 * and accepts the rest; a reload keeps all of it; a viewer sees the lot and cannot draw one. The
 * hub's own records (the lot, the audit rows) name A and B.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';
const LOT_SIZE = 20;
const PLAN = samplePlan({ lotSize: LOT_SIZE, confidencePct: 95, defectRateBp: 3_000 });

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub('hub-lots');
});
test.afterAll(async () => {
  await hub?.stop();
});

/** The review's Pull of one page of the subscription into this browser. */
async function pullPage(page: Page) {
  await page.goto(`/review/${SUB}?limit=${LOT_SIZE}&queue=all`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  // The list is virtual (only the rows in view are in the DOM): the count kept is the witness.
  await expect(page.getByText(`${LOT_SIZE} items kept on this device`)).toBeVisible();
}

/** Adopts, by key, every item the review lists (the lot's sample), each once the last is taken. */
async function adoptAllByKeys(page: Page, count: number): Promise<string[]> {
  const title = page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  const decided: string[] = [];
  for (let done = 0; done < count; done++) {
    const id = (await title.textContent())!.replace(/^Item /, '').trim();
    await page.keyboard.press('a');
    decided.push(id);
    if (done < count - 1) await expect(title).not.toHaveText(new RegExp(`${id}$`));
  }
  return decided;
}

const sampledItems = (page: Page) => page.getByRole('list', { name: 'Sampled items' }).locator('code');

test('a lot drawn by reviewer A is seen by reviewer B with the same sample; B decides it, A sees the outcome and accepts the rest; a reload keeps it; a viewer sees it but cannot draw', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  expect(PLAN.sampleSize).toBeGreaterThan(1);
  expect(PLAN.sampleSize).toBeLessThan(LOT_SIZE);
  const [aContext, bContext, viewerContext] = await Promise.all([hubContext(browser, hub), hubContext(browser, hub), hubContext(browser, hub)]);
  const [a, b, viewer] = await Promise.all([aContext.newPage(), bContext.newPage(), viewerContext.newPage()]);
  await signInThroughForm(a, hub.accounts.reviewer1);
  await signInThroughForm(b, hub.accounts.reviewer2);
  await signInThroughForm(viewer, hub.accounts.viewer);

  // A pulls a page and draws a zero-acceptance lot from the Items view.
  await pullPage(a);
  await a.goto(`/items/${SUB}`);
  await a.getByRole('button', { name: 'Sample…' }).click();
  const dialog = a.getByRole('dialog', { name: `Sample ${LOT_SIZE} undecided items` });
  await dialog.getByRole('radio', { name: /^Zero acceptance/ }).check();
  await dialog.getByRole('textbox', { name: 'Tolerated defect rate (%)' }).fill('30');
  await dialog.getByRole('button', { name: `Start: draw ${PLAN.sampleSize}` }).click();
  await expect(a).toHaveURL(/\/lots\/lot_[0-9a-f]{16}$/);
  const lotId = a.url().split('/').pop()!;
  await expect(a.getByText(`0 of ${PLAN.sampleSize} reviewed`)).toBeVisible();

  // The hub keeps it, drawn by A.
  const stored = await (await a.request.get(`/hub/v1/lots/${lotId}`)).json();
  expect(stored.lot).toMatchObject({ subscription_id: SUB, revision: 1, created_by: { email: hub.accounts.reviewer1.email } });
  const sample: string[] = stored.lot.value.sampleIds;
  expect(sample).toHaveLength(PLAN.sampleSize);
  expect(stored.lot.value.itemIds).toHaveLength(LOT_SIZE);

  // B, in another browser, pulls the same items, finds the lot among the team's and sees the same sample.
  await pullPage(b);
  await b.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lots' }).click();
  await expect(b.getByRole('heading', { name: 'Lots' })).toBeVisible();
  await b.getByRole('link', { name: `Lot of ${LOT_SIZE} · ${SUB}` }).click();
  await expect(b).toHaveURL(new RegExp(`/lots/${lotId}$`));
  await expect(b.getByText(`by ${hub.accounts.reviewer1.email}`)).toBeVisible();
  await b.getByText(`The sampled items (${PLAN.sampleSize})`).click();
  await expect(sampledItems(b)).toHaveText(sample);

  // B reviews exactly the sample with the usual keys, adopting each.
  await b.getByRole('link', { name: 'Review the sample' }).click();
  await expect(b.getByText(new RegExp(`^Reviewing ${PLAN.sampleSize} items: the sample of lot`))).toBeVisible();
  const decided = await adoptAllByKeys(b, PLAN.sampleSize);
  expect(new Set(decided)).toEqual(new Set(sample));
  await expect(b.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  // A, still on the lot's page, sees B's decisions counted (read again on its own: focus or the interval).
  await expect(a.getByText(`${PLAN.sampleSize} of ${PLAN.sampleSize} reviewed`)).toBeVisible();
  const recommendation = a.getByRole('status', { name: 'Recommendation' });
  await expect(recommendation).toContainText('Lot: Accepted. Recommendation: Accept the rest');
  await a.getByText(`The sampled items (${PLAN.sampleSize})`).click();
  await expect(a.getByRole('list', { name: 'Sampled items' }).getByText(`good (${hub.accounts.reviewer2.email})`)).toHaveCount(PLAN.sampleSize);

  // A accepts the rest: the action is recorded on the team's lot.
  const rest = LOT_SIZE - PLAN.sampleSize;
  await a.getByRole('button', { name: 'Accept the rest' }).click();
  const confirm = a.getByRole('alertdialog', { name: `Adopt ${rest} items?` });
  await confirm.getByRole('button', { name: new RegExp(`^Adopt ${rest} and pay`) }).click();
  await expect(a.getByRole('region', { name: 'Bulk decisions sent' })).toContainText(`${rest} of ${rest} confirmed`, { timeout: 90_000 });
  await expect(a.getByLabel('What was done with the rest')).toContainText(`${rest} decisions recorded`);

  // A reload keeps all of it, in both browsers.
  for (const page of [a, b]) {
    await page.goto(`/lots/${lotId}`);
    await expect(page.getByText(`${PLAN.sampleSize} of ${PLAN.sampleSize} reviewed`)).toBeVisible();
    await expect(page.getByRole('status', { name: 'Recommendation' })).toContainText('Lot: Accepted');
    await expect(page.getByLabel('What was done with the rest')).toContainText(`Accepted the rest on`);
    await page.reload();
    await expect(page.getByLabel('What was done with the rest')).toContainText(`${rest} decisions recorded`);
  }

  // A viewer sees the team's lot and its outcome, but cannot draw one: Sample… is disabled, with the reason.
  await viewer.goto('/lots');
  await viewer.getByRole('link', { name: `Lot of ${LOT_SIZE} · ${SUB}` }).click();
  await expect(viewer.getByText(`${PLAN.sampleSize} of ${PLAN.sampleSize} reviewed`)).toBeVisible();
  // The team's inbox brings the viewer the items A pulled, without a pull of their own.
  await viewer.goto(`/review/${SUB}?limit=${LOT_SIZE}&queue=all`);
  await expect(viewer.getByText(`${LOT_SIZE} items kept on this device`)).toBeVisible();
  await viewer.goto(`/items/${SUB}`);
  const sampleButton = viewer.getByRole('button', { name: 'Sample…' });
  await expect(sampleButton).toBeDisabled();
  await expect(sampleButton).toHaveAccessibleDescription(/viewer on this team hub: you can read the team’s lots but not draw one/);

  // The hub's records: the lot and its action, and audit rows naming A (the lot, the rest) and B (the sample's adopts).
  const finalLot = await (await viewer.request.get(`/hub/v1/lots/${lotId}`)).json();
  expect(finalLot.lot).toMatchObject({
    revision: 2,
    updated_by: { email: hub.accounts.reviewer1.email },
    value: { action: { decision: 'adopt', recorded: rest } },
  });
  expect(finalLot.sample_decisions).toHaveLength(PLAN.sampleSize);
  for (const d of finalLot.sample_decisions) expect(d).toMatchObject({ decision: 'adopt', by: hub.accounts.reviewer2.email });
  const admin = await (await hubContext(browser, hub)).newPage();
  await signInThroughForm(admin, hub.accounts.admin);
  const members = await hubAs(admin, hub).members();
  const idOf = (email: string) => members.find((m) => m.email === email)!.id;
  const audit = hubAs(admin, hub).audit;
  const lotRows = [...(await audit('lot.create')), ...(await audit('lot.update'))];
  expect(lotRows.map((r) => [r.action, r.actor_id])).toEqual([
    ['lot.create', idOf(hub.accounts.reviewer1.email)],
    ['lot.update', idOf(hub.accounts.reviewer1.email)],
  ]);
  const adopts = (await audit('v1.adopt')).filter((r) => sample.includes(r.item_id!));
  expect(adopts).toHaveLength(PLAN.sampleSize);
  for (const r of adopts) expect(r).toMatchObject({ actor_id: idOf(hub.accounts.reviewer2.email), outcome: 'accepted' });
});
