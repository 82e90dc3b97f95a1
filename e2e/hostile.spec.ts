import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectWith } from './support/console';
import { createKey, E2E_DATA } from './support/service';

function deep(levels: number): unknown {
  let value: unknown = { bottom: '<b>deep</b>' };
  for (let i = 0; i < levels; i++) value = { level: value };
  return value;
}

const HOSTILE_PAYLOADS: Record<string, unknown>[] = [
  {
    title: '<script>window.__pwned = 1</script>',
    html: '<img src=x onerror="window.__pwned=1">',
    image_url: 'javascript:window.__pwned=1',
    link: 'javascript:alert(1)',
    frame: 'data:text/html,<script>alert(1)</script>',
    photo_url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    annotations: [{ label: '<svg onload=alert(1)>', bbox: { x: 1, y: 1, width: 10, height: 10 } }],
  },
  { text: 'A'.repeat(1_000_000) },
  { nested: deep(1_000) },
  { values: Array.from({ length: 100_000 }, (_, i) => i) },
  { annotations: 'not a list', bbox: { x: '1', y: null }, image: { url: 42 }, boxes: [[1, 2, '3', 4]], polygon: [[1], [2, 3, 4]] },
];

test('hostile payloads render inertly and the page stays responsive', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'dds-hostile-'));
  const file = join(dir, 'hostile.json');
  writeFileSync(
    file,
    JSON.stringify({
      verticals: [{ id: 'v-hostile', slug: 'hostile', name: 'Hostile', description: 'payloads that try to break out', base_price_usd: 0.001 }],
      subscriptions: [{ subscription_id: 'sub_hostile', kind: 'simulated', vertical_id: 'v-hostile', name: 'Hostile' }],
      items: HOSTILE_PAYLOADS.map((payload, i) => ({
        id: `hostile-${i}`,
        vertical_id: 'v-hostile',
        topic_id: 'topic-hostile',
        subscription_id: 'sub_hostile',
        payload,
        quality_score: 0.5,
        quality_method: 'consensus',
        validator_count: 3,
        consensus_ratio: 0.5,
        unit_price_usd: 0.001,
        created_at: `2026-01-0${i + 1}T00:00:00Z`,
      })),
    }),
  );
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/fixtures.ts', 'import', file, '--data', E2E_DATA]);
  const key = createKey('Hostile', ['sub_hostile']);

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await connectWith(page, 'Hostile', key.key, [{ id: 'sub_hostile', kind: 'Simulated' }]);
  await page.goto('/review/sub_hostile?limit=10');
  await page.getByRole('button', { name: 'Pull', exact: true }).click();
  const options = page.getByRole('listbox', { name: 'Items on this page' }).getByRole('option');
  await expect(options).toHaveCount(HOSTILE_PAYLOADS.length);

  // What the page holds that could run or leave: read while each item is on screen, since only
  // the focused item (and the next, hidden) is rendered.
  const unsafeNodes = () =>
    page.evaluate(() => ({
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!).filter((h) => !/^(https?:|\/|#)/.test(h)),
      images: [...document.querySelectorAll('img[src]')].map((i) => i.getAttribute('src')!).filter((s) => !/^(https?:|\/|data:image\/|blob:)/.test(s)),
      frames: document.querySelectorAll('iframe, object, embed').length,
      scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
    }));
  const inert = { links: [], images: [], frames: 0, scripts: 0 };
  const heading = page.getByRole('region', { name: 'Focused item' }).getByRole('heading', { level: 2 });
  for (let i = 0; i < HOSTILE_PAYLOADS.length; i++) {
    await expect(heading).toHaveText(`Item hostile-${i}`);
    expect(await unsafeNodes(), `item ${i}`).toEqual(inert);
    const started = Date.now();
    await page.keyboard.press('j');
    if (i < HOSTILE_PAYLOADS.length - 1) await expect(heading).toHaveText(`Item hostile-${i + 1}`);
    expect(Date.now() - started, `moving past item ${i}`).toBeLessThan(2_000);
  }
  // Open the raw view of the biggest payloads too.
  await page.keyboard.press('k');
  await page.getByRole('button', { name: 'Raw JSON' }).click();
  await expect(page.getByRole('region', { name: 'Delivered content' }).locator('pre')).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await unsafeNodes(), 'raw view').toEqual(inert);
});
