import type { Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';
import type { Bench } from './run';

/** The repository's root, for a bench page's imports of the console's modules. */
export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Bundles a bench page of its own (Vite, as the console is built) from `source`, a module that may
 * import the console's modules by absolute path (`${ROOT}/src/…`); returns the directory to serve.
 */
export async function bundlePage(bench: Bench, name: string, source: string): Promise<string> {
  // Inside the repository, so the page's imports resolve from its node_modules.
  const work = join(ROOT, 'node_modules', '.cache', name);
  rmSync(work, { recursive: true, force: true });
  bench.defer(() => rmSync(work, { recursive: true, force: true }));
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>');
  writeFileSync(join(work, 'main.js'), source);
  const outDir = join(work, 'dist');
  await build({
    configFile: false,
    root: work,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  });
  return outDir;
}

/** An HTTP server on a free loopback port, closed at the end; returns its URL. */
export function serve(bench: Bench, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  bench.defer(() => server.close());
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves the files of `dir`. */
export const serveDir = (bench: Bench, dir: string) =>
  serve(bench, (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir)) return void response.writeHead(404).end();
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });

/** Calls a function a bench page put on `window`, with one argument; its result. */
export const callPage = <T>(page: Page, name: string, arg?: unknown) =>
  page.evaluate(([f, a]) => (window as unknown as Record<string, (a: unknown) => Promise<unknown>>)[f]!(a), [name, arg] as const) as Promise<T>;
