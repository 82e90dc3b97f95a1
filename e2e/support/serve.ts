// Starts a fresh local service for the E2E run: a new demo data directory, the built console.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { E2E_DATA } from './service';

const port = process.argv[2] ?? '8788';
if (!existsSync('dist/index.html')) {
  console.error('dist/ is missing: run `vite build` first (npm test does).');
  process.exit(1);
}
rmSync(E2E_DATA, { recursive: true, force: true });
const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', '--port', port, '--data', E2E_DATA, '--static', 'dist', '--quiet'], {
  stdio: 'inherit',
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
