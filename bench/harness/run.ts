import { writeFileSync } from 'node:fs';

/** One row of a benchmark's table: a measure, its value as printed, and its target and verdict when it has one. */
export interface Row {
  metric: string;
  value: string;
  target?: string;
  ok?: boolean;
}

export interface Bench {
  /** Cleanups run when the benchmark ends, last registered first, whether it succeeded or not. */
  defer(cleanup: () => unknown): void;
  /** Prints the table, writes it to bench/<name>-tables.json (`npm run bench` reads it), and fails the run when a target is missed. */
  report(title: string, rows: Row[]): void;
}

export const tablesFile = (name: string) => `bench/${name}-tables.json`;

/** Prints rows (with a group column when they have one) and the verdict of each that has a target. */
export function printTable(title: string, rows: (Row & { group?: string })[]) {
  const width = (pick: (r: Row & { group?: string }) => string = (r) => r.metric, min = 6) => Math.max(min, ...rows.map((r) => pick(r).length));
  const groupWidth = rows.some((r) => r.group) ? width((r) => r.group ?? '', 5) : 0;
  const [metricWidth, valueWidth, targetWidth] = [width(), width((r) => r.value, 5), width((r) => r.target ?? '')];
  const line = (group: string, metric: string, value: string, target: string, verdict: string) =>
    console.log(
      `${groupWidth ? `${group.padEnd(groupWidth)}  ` : ''}${metric.padEnd(metricWidth)}  ${value.padStart(valueWidth)}  ${target.padEnd(targetWidth)}  ${verdict}`.trimEnd(),
    );
  console.log(`\n${title}`);
  line('group', 'metric', 'value', 'target', '');
  for (const r of rows) line(r.group ?? '', r.metric, r.value, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED');
}

/**
 * Runs a benchmark's `main`: an error is printed and exits 1, a missed target exits 1, and the
 * deferred cleanups (browser, service, temporary directories) run in every case.
 */
export function runBench(name: string, main: (bench: Bench) => Promise<void>) {
  const cleanups: (() => unknown)[] = [];
  const bench: Bench = {
    defer: (cleanup) => cleanups.push(cleanup),
    report(title, rows) {
      printTable(title, rows);
      writeFileSync(tablesFile(name), `${JSON.stringify([{ title, rows }], null, 2)}\n`);
      if (rows.some((r) => r.ok === false)) process.exitCode = 1;
    },
  };
  void main(bench)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(async () => {
      for (const cleanup of cleanups.reverse())
        await Promise.resolve()
          .then(cleanup)
          .catch((error: unknown) => console.error('cleanup:', error));
      process.exit();
    });
}
