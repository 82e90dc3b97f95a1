import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Bench } from './run';

export interface Listening {
  child: ChildProcess;
  /** Where it said it listens. */
  url: string;
  /** SIGTERM, then its exit (at once when it has exited already); also run when the benchmark ends. */
  close(): Promise<void>;
}

/**
 * Runs one of server/cli/ as a child process and waits until it prints `listening on URL`. Every
 * other line of its output goes to `onLine`; stderr is the benchmark's. Exiting before it listens
 * fails with what it printed.
 */
export async function spawnListening(
  bench: Bench,
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; onLine?: (line: string) => void } = {},
): Promise<Listening> {
  const child = spawn(process.execPath, ['--import', 'tsx', `server/cli/${script}`, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: options.env ?? process.env,
  });
  const exited = once(child, 'exit');
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  bench.defer(close);
  const url = await new Promise<string>((resolve, reject) => {
    let printed = '';
    let partial = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        printed += `${line}\n`;
        const listening = /listening on (http:\/\/\S+)/.exec(line);
        if (listening) resolve(listening[1]!);
        else options.onLine?.(line);
      }
    });
    void exited.then(([code]) => reject(new Error(`${script} exited with ${code} before it listened:\n${printed}${partial}`)));
  });
  return { child, url, close };
}
