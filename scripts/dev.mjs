// `npm run dev`: the local service on :8787 and Vite with hot reload on :5173, /v1 proxied.
import { spawn } from 'node:child_process';

const run = (command, args) => spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
const children = [run('npx', ['tsx', 'watch', 'server/cli/service.ts', '--port', '8787', '--data', '.data']), run('npx', ['vite'])];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
