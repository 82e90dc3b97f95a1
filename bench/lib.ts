import { spawn, type ChildProcess } from 'node:child_process';

/** Small helpers shared by the benchmarks: percentiles, a table, a service child process. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function printTable(title: string, rows: { metric: string; value: string; target?: string; ok?: boolean }[]) {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((r) => r.metric.length), 6);
  const valueWidth = Math.max(...rows.map((r) => r.value.length), 5);
  console.log(`${'metric'.padEnd(width)}  ${'value'.padStart(valueWidth)}  target`);
  for (const r of rows) {
    const verdict = r.ok === undefined ? '' : r.ok ? '  ok' : '  MISSED';
    console.log(`${r.metric.padEnd(width)}  ${r.value.padStart(valueWidth)}  ${r.target ?? ''}${verdict}`);
  }
}

export async function startServiceProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/service.ts', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { url, child };
}
