import { expect, test, type Page } from '@playwright/test';
import { serviceApi } from './support/api';
import { connectDemo } from './support/console';

const SUB = 'sub_live_support';
const itemCount = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;

/** The items table's rows in view: [ID, state, task, grade, quality] of each. */
async function visibleRows(page: Page) {
  const rows = page.getByRole('table', { name: 'Matching items' }).locator('tbody tr:not([aria-hidden])');
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

test('filter the stored items by quality and grade, keep the filter over a reload, review the matches and see a decision move the counts', async ({
  page,
  request,
}) => {
  await connectDemo(page);
  // Everything the subscription holds comes into this browser through the UI.
  await page.goto(`/review/${SUB}?limit=200`);
  // Recover re-reads from the beginning and keeps every undecided item (other specs pull and decide this subscription's items too).
  await page.getByRole('button', { name: 'Recover missing items' }).click();
  await expect(page.getByText(/^Recover finished: /)).toBeVisible({ timeout: 60_000 });

  // The service's own records are the witness: every undecided item of the subscription, as delivered.
  const records = (
    (await serviceApi(request).reread(SUB)) as unknown as {
      submission_id: string;
      quality_score: number;
      quality_grade: string;
      consumer_feedback: string | null;
    }[]
  ).filter((r) => r.consumer_feedback === null);
  expect(records.length).toBeGreaterThan(50);
  const expected = records.filter((r) => r.quality_score >= 0.8 && r.quality_score <= 0.9 && r.quality_grade === 'B');
  expect(expected.length).toBeGreaterThan(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: SUB })
    .getByRole('link', { name: /^Items of / })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'items match' })).toHaveText(
    `${records.length.toLocaleString('en-US')} of ${records.length.toLocaleString('en-US')} items match`,
  );

  // Filter as a person does: type the quality range, tick the grade.
  await page.getByRole('spinbutton', { name: 'Quality from' }).fill('0.8');
  await page.getByRole('spinbutton', { name: 'Quality to' }).fill('0.9');
  await page.getByRole('spinbutton', { name: 'Quality to' }).press('Enter');
  await page.getByRole('checkbox', { name: 'Grade B' }).check();
  const status = page.getByRole('status').filter({ hasText: 'items match' });
  await expect(status).toHaveText(`${expected.length.toLocaleString('en-US')} of ${records.length.toLocaleString('en-US')} items match`);

  // Sorted by quality, lowest first: the rows in view are matches, in order, starting at the lowest.
  await page.getByRole('button', { name: /^Quality/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Quality/ })).toHaveAttribute('aria-sort', 'ascending');
  const expectedIds = new Set(expected.map((r) => r.submission_id));
  const lowest = Math.min(...expected.map((r) => r.quality_score));
  await expect.poll(async () => (await visibleRows(page))[0]?.[4]).toBe(String(lowest));
  const shown = await visibleRows(page);
  expect(shown.length).toBeGreaterThan(Math.min(5, expected.length - 1));
  for (const [id, , , grade] of shown) {
    expect(expectedIds.has(id!), id).toBe(true);
    expect(grade).toBe('B');
  }
  const qualities = shown.map((r) => Number(r[4]));
  expect(qualities).toEqual([...qualities].sort((a, b) => a - b));

  // A reload keeps the filters and the sort: they are the URL.
  await page.reload();
  await expect(status).toHaveText(`${expected.length.toLocaleString('en-US')} of ${records.length.toLocaleString('en-US')} items match`);
  await expect(page.getByRole('checkbox', { name: 'Grade B' })).toBeChecked();
  await expect(page.getByRole('spinbutton', { name: 'Quality from' })).toHaveValue('0.8');
  await expect(page.getByRole('columnheader', { name: /^Quality/ })).toHaveAttribute('aria-sort', 'ascending');

  const undecided = page.getByRole('checkbox', { name: 'Decision Undecided' });
  const adopted = page.getByRole('checkbox', { name: 'Decision Adopted' });
  await expect(undecided).toHaveAccessibleDescription(itemCount(expected.length));

  // Review the matches: the workspace lists exactly them and says so.
  await page.getByRole('link', { name: `Review these ${expected.length.toLocaleString('en-US')}` }).click();
  await expect(
    page.getByText(`Reviewing ${expected.length.toLocaleString('en-US')} item${expected.length === 1 ? '' : 's'}: grade B, quality 0.8–0.9`),
  ).toBeVisible();
  const list = page.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option').first()).toBeVisible();
  const title = (await page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first().textContent())!;
  const decidedId = title.replace('Submission ', '');
  expect(expectedIds.has(decidedId), decidedId).toBe(true);
  await page.keyboard.press('a');
  await expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();

  // Back on the items view, the decided item has left "undecided" and entered "adopted".
  await page.goBack();
  await expect(undecided).toHaveAccessibleDescription(itemCount(expected.length - 1));
  await expect(adopted).toHaveAccessibleDescription('1 item');
  await adopted.check();
  await expect(status).toHaveText(`1 of ${records.length.toLocaleString('en-US')} items match`);
  expect((await visibleRows(page)).map((r) => r[0])).toEqual([decidedId]);

  // The service recorded that one decision.
  const recorded = new Map((await serviceApi(request).reread(SUB)).map((s) => [s.submission_id, s.consumer_feedback]));
  expect(recorded.get(decidedId)).toBe('adopt');
});

test('at 390 px the filters fold into a disclosure and the page does not scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await connectDemo(page);
  await page.goto(`/review/${SUB}?limit=20`);
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(page.getByText(/[\d,]+ items kept on this device/)).toBeVisible();
  await page.goto(`/items/${SUB}`);
  await expect(page.getByRole('status').filter({ hasText: 'items match' })).toContainText('items match');
  const toggle = page.getByRole('button', { name: 'Show filters' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('checkbox', { name: 'Decision Undecided' })).toBeHidden();
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('checkbox', { name: 'Decision Undecided' }).check();
  await expect(page).toHaveURL(/state=undecided/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
