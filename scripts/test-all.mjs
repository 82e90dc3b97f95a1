// `npm test`: every check as its own step, run side by side where the machine allows. Each step's
// output goes to .tmp/test/<step>.log; its time is printed when it ends, a table when all have, and
// the output of every step that failed. Exits non-zero if any step failed.
// Two phases, so that no timed step competes with another for the CPU: unit+integration first
// (its tests start services and CLIs with hang guards), then E2E (three workers, each with its own
// service and browser: with two, CPU sat idle while tests waited on their pages and services). The static checks have no clocks: they run niced beside
// both, taking only the CPU the timed steps leave. TEST_JOBS caps the steps running at once.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

const STEPS = [
  { name: 'build', run: 'npx vite build' },
  { name: 'unit+integration', run: 'npm run -s test:unit' },
  { name: 'e2e', run: 'npm run -s test:e2e', needs: ['build'], after: ['unit+integration'] },
  // The rest yield the CPU to the timed steps above (nice).
  { name: 'lint', run: 'npm run -s lint', nice: true },
  { name: 'typecheck', run: 'npm run -s typecheck', nice: true },
  { name: 'knip', run: 'npm run -s knip', nice: true },
  { name: 'format', run: 'npm run -s format:check', nice: true },
  { name: 'openapi lint', run: 'npm run -s openapi:lint', nice: true },
  { name: 'lockfile', run: 'npm run -s lockfile:check', nice: true },
];
const NICE = process.platform === 'win32' ? '' : 'nice -n 10 ';
const JOBS = Number(process.env.TEST_JOBS) || STEPS.length;
const LOGS = '.tmp/test';
mkdirSync(LOGS, { recursive: true });

const began = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const logOf = (step) => `${LOGS}/${step.name.replace(/\W+/g, '-')}.log`;
const running = new Set();
const waiting = [...STEPS];

function start(step) {
  step.started = performance.now();
  running.add(step);
  console.log(`… ${step.name} (${step.run}; log ${logOf(step)})`);
  const log = createWriteStream(logOf(step));
  const child = spawn(`${step.nice ? NICE : ''}${step.run}`, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.on('close', (code) => {
    log.end(() => {
      step.ms = performance.now() - step.started;
      step.ok = code === 0;
      running.delete(step);
      console.log(`${step.ok ? '✓' : '✗'} ${step.name}: ${seconds(step.ms)} (load ${load()})`);
      next();
    });
  });
}

function next() {
  for (const step of [...waiting]) {
    // `needs`: steps that must succeed first; `after`: steps that must only have ended.
    const needs = (step.needs ?? []).map((name) => STEPS.find((s) => s.name === name));
    const after = (step.after ?? []).map((name) => STEPS.find((s) => s.name === name));
    const failed = needs.find((dep) => dep.ok === false);
    if (failed) {
      waiting.splice(waiting.indexOf(step), 1);
      Object.assign(step, { ok: false, ms: 0, skipped: true });
      console.log(`✗ ${step.name}: not run, ${failed.name} failed`);
      continue;
    }
    if (needs.some((dep) => !dep.ok) || after.some((dep) => dep.ok === undefined) || running.size >= JOBS) continue;
    waiting.splice(waiting.indexOf(step), 1);
    start(step);
  }
  if (running.size === 0 && waiting.length === 0) finish();
}

function finish() {
  for (const step of STEPS.filter((s) => !s.ok && !s.skipped)) {
    console.log(`\n──── ${step.name} failed: ${logOf(step)} ────\n${readFileSync(logOf(step), 'utf8')}`);
  }
  console.log(`\n${'step'.padEnd(18)}${'result'.padEnd(9)}time`);
  for (const step of STEPS) console.log(`${step.name.padEnd(18)}${(step.skipped ? 'not run' : step.ok ? 'ok' : 'FAILED').padEnd(9)}${seconds(step.ms)}`);
  console.log(`${'total'.padEnd(27)}${seconds(performance.now() - began)}  (${JOBS} at once, ${availableParallelism()} cores, load ${load()})`);
  process.exitCode = STEPS.every((s) => s.ok) ? 0 : 1;
}

console.log(`npm test: ${STEPS.length} steps, at most ${JOBS} at once (load ${load()})`);
next();
