import { expect, test } from '@playwright/test';
import { hubAs, hubContext, signInThroughForm, startE2eHub, type E2eHub } from './support/hub';

/*
 * The team's shared inbox (`--demo --static dist`): reviewer A pulls a page in the console;
 * reviewer B, in another browser, sees those items in the review and the items view without
 * pulling (the console copies the hub's inbox into its store); the hub forwarded one pull; a
 * reload keeps everything.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';
const LIMIT = 12;

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub('hub-inbox');
});
test.afterAll(async () => {
  await hub?.stop();
});

test('items reviewer A pulled appear in reviewer B’s browser without a pull, once, and stay after a reload', async ({ browser }) => {
  test.setTimeout(180_000);
  const [aContext, bContext] = await Promise.all([hubContext(browser, hub), hubContext(browser, hub, { width: 390, height: 844 })]);
  const [a, b] = await Promise.all([aContext.newPage(), bContext.newPage()]);
  await signInThroughForm(a, hub.accounts.reviewer1);
  await signInThroughForm(b, hub.accounts.reviewer2);

  await a.goto(`/review/${SUB}?limit=${LIMIT}&queue=all`);
  await a.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(a.getByText(`${LIMIT} items kept on this device`)).toBeVisible();
  const inbox = await (await a.request.get(`/hub/v1/inbox?subscription_id=${SUB}`)).json();
  const pulled = (inbox.items as { item_id: string }[]).map((i) => i.item_id);
  expect(pulled).toHaveLength(LIMIT);

  // B pulls nothing: the team's inbox reaches B's browser.
  await b.goto(`/review/${SUB}?queue=all`);
  await expect(b.getByText(`${LIMIT} items kept on this device`)).toBeVisible();
  const focused = b.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
  await expect(focused).toHaveText(new RegExp(pulled.map((id) => id.slice(0, 8)).join('|')));
  await b.goto(`/items/${SUB}`);
  await expect(b.getByText(pulled[0]!.slice(0, 8)).first()).toBeVisible();
  await b.screenshot({ path: 'test-results/hub-inbox-items-390.png', fullPage: false });
  await a.setViewportSize({ width: 1280, height: 720 });
  await a.goto(`/items/${SUB}`);
  await a.screenshot({ path: 'test-results/hub-inbox-items-1280.png', fullPage: false });

  // The hub forwarded one pull of the subscription: B's items came from its inbox.
  const admin = await (await browser.newContext({ baseURL: hub.url })).newPage();
  await signInThroughForm(admin, hub.accounts.admin);
  const pulls = (await hubAs(admin, hub).audit('v1.pull')).filter((r) => r.subscription_id === SUB);
  expect(pulls).toHaveLength(1);

  await b.reload();
  await b.goto(`/review/${SUB}?queue=all`);
  await expect(b.getByText(`${LIMIT} items kept on this device`)).toBeVisible();
  await Promise.all([aContext.close(), bContext.close()]);
});
