import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromiumLaunchOptions } from './scripts/chromium';

async function measure(dir: string, port: number) {
  const data = mkdtempSync(join(tmpdir(), 'fp-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', '--port', String(port), '--data', data, '--static', dir, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => { if (c.toString().includes('http')) resolve(); }));
  const browser = await chromium.launch(chromiumLaunchOptions());
  const page = await browser.newPage();
  const loaded = new Set<string>();
  page.on('response', (r) => { const p = new URL(r.url()).pathname; if (p.startsWith('/assets/') && p.endsWith('.js')) loaded.add(p.slice(8)); });
  await page.goto(`http://127.0.0.1:${port}/frontiers`, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Urban street scenes' }).waitFor();
  await browser.close();
  child.kill('SIGTERM');
  const total = [...loaded].reduce((s, f) => s + gzipSync(readFileSync(join(dir, 'assets', f)), { level: 9 }).length, 0);
  console.log(dir, loaded.size, 'files', (Math.round((total / 1024) * 10) / 10).toFixed(1), 'KB');
}
await measure('/tmp/shell-base-dist', 9451);
await measure('dist', 9452);
