import { expect, test, type BrowserContext, type Download, type Page } from '@playwright/test';
import Database from 'libsql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hubAs, signedInPage, startE2eHub, type E2eHub } from './support/hub';

/*
 * The team's decisions in every browser (GET /hub/v1/inbox/decisions, synced into the outbox as
 * `decided-team`): reviewer A adopts and disputes items by keyboard; reviewer B, whose items view
 * is open in another browser, sees each decided by A without a reload; after a reload still; B's
 * review moves past them; the vendor decided each item once.
 */
test.describe.configure({ mode: 'serial' });

const SUB = 'sub_sim_retail';
const LIMIT = 8;

let hub: E2eHub;
const contexts: BrowserContext[] = [];
test.beforeAll(async () => {
  hub = await startE2eHub('hub-decisions-feed');
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await hub?.stop();
});

const focusedHeading = (page: Page) => page.getByRole('region', { name: 'Focused item' }).getByRole('heading').first();
const focusedId = async (page: Page) => (await focusedHeading(page).textContent())!.replace(/^(Submission|Item) /, '').trim();
const saved = (page: Page) => expect(page.getByRole('status', { name: 'Decisions: All decisions saved' })).toBeVisible();
/** B's items table row of an item (the table shows the id's first characters). */
const rowOf = (page: Page, id: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: id.slice(0, 8) }) });

/** The simulator's own record (its database): each item's status and when it was decided. */
function vendorItems(ids: readonly string[]): Map<string, string> {
  const db = new Database(join(hub.dataDir, 'simulator', 'service.db'), { readonly: true });
  try {
    const status = new Map<string, string>();
    for (const id of ids) status.set(id, (db.prepare('SELECT status FROM items WHERE id = ?').get(id) as { status: string }).status);
    return status;
  } finally {
    db.close();
  }
}

/**
 * Records in B's page when a row first reads "<state> by reviewer1" (a MutationObserver: the time
 * of the DOM change, on the same clock as A's keypress), for the latency printed at the end.
 */
async function watchRows(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { teamSeen: Record<string, number> }).teamSeen = seen;
    const scan = () => {
      for (const row of document.querySelectorAll('tr')) {
        const text = row.textContent ?? '';
        const match = /by reviewer1/.exec(text);
        const id = row.querySelector('td')?.getAttribute('title');
        if (match && id && seen[id] === undefined) seen[id] = Date.now();
      }
    };
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('a teammate’s adopts and disputes show in another browser’s items view without a reload, stay after one, and the review moves past them', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const a = await signedInPage(browser, hub, hub.accounts.reviewer1, contexts, { width: 1440, height: 900 });
  const b = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts, { width: 1440, height: 900 });

  await a.goto(`/review/${SUB}?limit=${LIMIT}`);
  await a.getByRole('button', { name: 'Pull', exact: true }).click();
  await expect(a.getByText(`${LIMIT} items kept on this device`)).toBeVisible();

  // B's items view is open before A decides anything; the page is never reloaded until the end.
  await b.goto(`/items/${SUB}`);
  await expect(b.getByRole('row').filter({ hasText: 'Undecided' })).toHaveCount(LIMIT);
  await b.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await watchRows(b);
  // And B's Statistics of the subscription, in a second tab.
  const bStats = await b.context().newPage();
  await bStats.goto(`/stats/${SUB}`);
  const summary = bStats.getByLabel('Summary');
  await expect(summary).toContainText(new RegExp(`Undecided\\s*${LIMIT}\\s*Adopted\\s*0\\s*Disputed\\s*0`));

  // A: adopt, dispute (no code), adopt, each by key; the time of each keypress on the page's clock.
  const decided: { id: string; kind: 'adopt' | 'dispute'; at: number }[] = [];
  for (const kind of ['adopt', 'dispute', 'adopt'] as const) {
    const id = await focusedId(a);
    const at = await a.evaluate(() => Date.now());
    await a.keyboard.press(kind === 'adopt' ? 'a' : 'd');
    if (kind === 'dispute') {
      const form = a.getByRole('form', { name: 'Dispute reason' });
      await expect(form).toBeVisible();
      await a.keyboard.press('Enter');
      await expect(form).toBeHidden();
    }
    decided.push({ id, kind, at });
    await expect(focusedHeading(a)).not.toHaveText(new RegExp(id));
  }
  await saved(a);

  // B: each row reads decided by A, with no reload.
  for (const { id, kind } of decided) await expect(rowOf(b, id)).toContainText(kind === 'adopt' ? 'Adopted by reviewer1' : 'Disputed by reviewer1');
  expect(await b.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true)).toBe(true);
  // The rest are undecided still; Statistics counts A's decisions, without a reload either.
  await expect(b.getByRole('row').filter({ hasText: 'Undecided' })).toHaveCount(LIMIT - decided.length);
  await expect(summary).toContainText(new RegExp(`Undecided\\s*${LIMIT - decided.length}\\s*Adopted\\s*2\\s*Disputed\\s*1`));
  await bStats.close();
  const seen = await b.evaluate(() => (window as unknown as { teamSeen: Record<string, number> }).teamSeen);
  await b.screenshot({ path: 'test-results/hub-decisions-feed-items-1440.png' });

  // After a reload: still decided by A.
  await b.reload();
  for (const { id, kind } of decided) await expect(rowOf(b, id)).toContainText(kind === 'adopt' ? 'Adopted by reviewer1' : 'Disputed by reviewer1');
  for (const size of [
    { width: 1280, height: 720, name: '1280' },
    { width: 390, height: 844, name: '390' },
  ]) {
    await b.setViewportSize(size);
    await b.screenshot({ path: `test-results/hub-decisions-feed-items-${size.name}.png` });
  }

  // B's review of the whole subscription (A's batch holds every undecided item): the list names A's
  // decisions, and j / k move only among the undecided ones.
  await b.setViewportSize({ width: 1440, height: 900 });
  await b.goto(`/review/${SUB}?queue=all`);
  const list = b.getByRole('listbox', { name: 'Items on this page' });
  await expect(list.getByRole('option', { name: /adopted by reviewer1/ })).toHaveCount(2);
  await expect(list.getByRole('option', { name: /disputed by reviewer1/ })).toHaveCount(1);
  const ids = new Set(decided.map((d) => d.id));
  const visited: string[] = [await focusedId(b)];
  for (let i = 0; i < 3; i++) {
    await b.keyboard.press('j');
    await expect(focusedHeading(b)).not.toHaveText(new RegExp(visited.at(-1)!));
    visited.push(await focusedId(b));
  }
  await b.keyboard.press('k');
  visited.push(await focusedId(b));
  expect(visited.filter((id) => ids.has(id))).toEqual([]);
  for (const size of [
    { width: 1440, height: 900, name: '1440' },
    { width: 1280, height: 720, name: '1280' },
    { width: 390, height: 844, name: '390' },
  ]) {
    await b.setViewportSize(size);
    await b.screenshot({ path: `test-results/hub-decisions-feed-review-${size.name}.png` });
  }

  // The vendor's record: each decided once, as A decided it; the hub sent each once.
  const status = vendorItems(decided.map((d) => d.id));
  for (const { id, kind } of decided) expect(status.get(id)).toBe(kind === 'adopt' ? 'adopted' : 'disputed');
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts);
  const sends = (await hubAs(admin, hub).audit('decision.send')).filter((r) => ids.has(r.item_id ?? ''));
  // Printed, not asserted: A's keypress → B's row, and of it the part after the hub took A's decision (A's undo window comes first).
  const accepted = new Map<string, number>();
  for (const action of ['v1.adopt', 'v1.dispute'])
    for (const r of (await hubAs(admin, hub).audit(action)) as unknown as { item_id: string; at: string; outcome: string }[])
      if (r.outcome === 'accepted') accepted.set(r.item_id, Date.parse(r.at));
  for (const { id, kind, at } of decided) {
    const row = seen[id];
    const hubAt = accepted.get(id);
    console.log(
      `[measure] ${kind} ${id.slice(0, 8)}: A's keypress → B's row ${row === undefined ? 'n/a' : `${row - at} ms`}; the hub took it → B's row ${row === undefined || hubAt === undefined ? 'n/a' : `${row - hubAt} ms`}`,
    );
  }
  expect(sends.map((r) => r.item_id).sort()).toEqual([...ids].sort());
  const receipts = new Database(join(hub.dataDir, 'simulator', 'service.db'), { readonly: true });
  try {
    for (const { id, kind } of decided) {
      const n = (receipts.prepare("SELECT count(*) AS n FROM receipts WHERE kind = 'adopt' AND item_id = ?").get(id) as { n: number }).n;
      expect(n, `adopt receipts of ${id}`).toBe(kind === 'adopt' ? 1 : 0);
    }
  } finally {
    receipts.close();
  }
});

test('an export names who decided each item: a teammate’s decisions carry their email, undecided items nobody', async ({ browser }) => {
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts);
  const reviewer1 = (await hubAs(admin, hub).members()).find((m) => m.email === hub.accounts.reviewer1.email)!.id;
  const byReviewer1 = new Set<string>();
  for (const action of ['v1.adopt', 'v1.dispute'])
    for (const r of await hubAs(admin, hub).audit(action)) if (r.outcome === 'accepted' && r.actor_id === reviewer1) byReviewer1.add(r.item_id!);
  expect(byReviewer1.size).toBeGreaterThan(0);

  // Reviewer 2, in a new browser: the team's decisions reach it, then Export… of everything, as JSON Lines.
  const b = await signedInPage(browser, hub, hub.accounts.reviewer2, contexts, { width: 1440, height: 900 });
  // Headless Chromium offers showSaveFilePicker but closes it at once: without it the console downloads.
  await b.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  const downloads: Download[] = [];
  b.on('download', (download) => downloads.push(download));
  await b.goto(`/items/${SUB}`);
  await expect(b.getByRole('row').filter({ hasText: 'by reviewer1' })).toHaveCount(byReviewer1.size);
  await b.getByRole('button', { name: 'Export…' }).click();
  const dialog = b.getByRole('dialog');
  await dialog.getByRole('radio', { name: /^Everything/ }).check();
  await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
  await dialog.getByRole('button', { name: /^Export [\d,]+ items?$/ }).click();
  await expect(dialog.getByText(/^Saved [\d,]+ items? as /)).toBeVisible();
  await expect.poll(() => downloads.some((d) => d.suggestedFilename().endsWith('.jsonl'))).toBe(true);
  const file = downloads.find((d) => d.suggestedFilename().endsWith('.jsonl'))!;
  const [head, ...lines] = readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect((head!.manifest as { connection: { member: string } }).connection.member).toBe(hub.accounts.reviewer2.email);
  for (const line of lines) {
    const expected = byReviewer1.has(line.item_id as string) ? hub.accounts.reviewer1.email : line.decision === null ? null : line.decided_by;
    expect(line.decided_by, String(line.item_id)).toBe(expected);
  }
  expect(lines.filter((l) => l.decided_by === hub.accounts.reviewer1.email)).toHaveLength(byReviewer1.size);
});
