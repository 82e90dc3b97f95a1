import { expect, test } from '@playwright/test';
import { hubAs, hubContext, signInThroughForm, startE2eHub, type E2eHub } from './support/hub';

/*
 * The team's scheduled pull, set in the console: the admin picks an interval on the Queue page;
 * a reviewer, in another browser, sees it change without a reload and cannot set it; the hub pulls
 * the subscription by itself (the reviewer's page shows the team's last pull) and the items reach
 * the reviewer's items view without anyone pressing Pull. The audit holds the admin's change and
 * one pull made by the hub, not by a member.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';

let hub: E2eHub;
test.beforeAll(async () => {
  hub = await startE2eHub('hub-schedule');
});
test.afterAll(async () => {
  await hub?.stop();
});

test('an admin schedules the team’s pull; a reviewer sees it live, cannot change it, and gets the items nobody pulled', async ({ browser }) => {
  // The hub looks for due schedules every 15 s: the pull lands within one such round.
  test.setTimeout(180_000);
  const [adminContext, reviewerContext] = await Promise.all([
    hubContext(browser, hub, { width: 1280, height: 720 }),
    hubContext(browser, hub, { width: 390, height: 844 }),
  ]);
  const [admin, reviewer] = await Promise.all([adminContext.newPage(), reviewerContext.newPage()]);
  await signInThroughForm(admin, hub.accounts.admin);
  await signInThroughForm(reviewer, hub.accounts.reviewer1);

  for (const page of [admin, reviewer]) {
    await page.goto('/team/leases');
    await page.getByRole('combobox', { name: 'Subscription' }).selectOption(SUB);
  }
  const reviewerSchedule = reviewer.getByLabel('Schedule of this subscription');
  await expect(reviewerSchedule).toHaveText('Off · last pull by the team: never');
  // A reviewer reads the schedule; only an admin has the control.
  await expect(reviewer.getByRole('combobox', { name: 'Pull new items' })).toHaveCount(0);

  const choice = admin.getByRole('combobox', { name: 'Pull new items' });
  await expect(choice).toHaveValue('off');
  await expect(admin.getByRole('button', { name: 'Save schedule' })).toBeDisabled();
  await choice.selectOption({ label: 'Every 1 h' });
  await admin.getByRole('button', { name: 'Save schedule' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await admin.screenshot({ path: 'test-results/hub-schedule-1280.png', fullPage: true });

  // The change reaches the reviewer's open page through the change stream, then the hub's own pull does.
  await expect(reviewerSchedule).toContainText('Every 1 h');
  await expect(reviewerSchedule).not.toContainText('never', { timeout: 60_000 });
  await reviewer.screenshot({ path: 'test-results/hub-schedule-390.png', fullPage: true });

  // The items the hub pulled are in the reviewer's browser: nobody pressed Pull.
  const inbox = await (await reviewer.request.get(`/hub/v1/inbox?subscription_id=${SUB}`)).json();
  const pulled = (inbox.items as { item_id: string; arrived_how: string; arrived_by: string | null }[]).filter((i) => i.arrived_how === 'schedule');
  expect(pulled.length).toBeGreaterThan(0);
  expect(pulled.every((i) => i.arrived_by === null)).toBe(true);
  await reviewer.goto(`/items/${SUB}`);
  await expect(reviewer.getByText(pulled[0]!.item_id.slice(0, 8)).first()).toBeVisible();

  // The audit: the admin's change, and one pull of the subscription, the hub's own (no member).
  const audit = hubAs(admin, hub);
  const changes = await audit.audit('inbox.schedule');
  expect(changes.map((r) => r.subscription_id)).toEqual([SUB]);
  const pulls = (await audit.audit('v1.pull')).filter((r) => r.subscription_id === SUB);
  expect(pulls).toHaveLength(1);
  expect(pulls[0]!.actor_id).toBeNull();

  // A reviewer's own attempt through the API is refused by role.
  const refused = await reviewer.request.put(`/hub/v1/inbox/schedules/${SUB}`, { headers: { Origin: hub.url }, data: { every_minutes: 1 } });
  expect(refused.status()).toBe(403);
  await Promise.all([adminContext.close(), reviewerContext.close()]);
});
