import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compileHints } from './scripts/vite-compile-hints.ts';
import { withoutZodJsonSchema } from './scripts/vite-zod-json-schema.ts';

const service = process.env.DDS_SERVICE_URL ?? 'http://127.0.0.1:8787';

export default defineConfig({
  plugins: [
    // The router plugin must run before React's: it writes src/routeTree.gen.ts and splits route code.
    // A route's loader travels with its component (one request for both), so the first page does
    // not carry every other page's loader and the queries it imports.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
    }),
    react(),
    tailwindcss(),
    withoutZodJsonSchema(),
    compileHints(),
    // The offline app shell (service-worker/sw.ts): the worker is built from our own source, with the
    // build's files listed in it for the precache. Registered by src/app/offline-shell.ts, not by a
    // script the plugin would add; no web app manifest (the console is not installed as an app).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'service-worker',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['index.html', 'assets/*.{js,css}', '*.svg', 'favicon.png'],
      },
    }),
  ],
  resolve: {
    // TanStack Store asks for the pre-React-18 shim of useSyncExternalStore; React 19 has the hook,
    // and the package's own non-shim entry uses it (the shim's fallback code never runs here).
    alias: [{ find: /^use-sync-external-store\/shim\/with-selector$/, replacement: 'use-sync-external-store/with-selector' }],
  },
  server: {
    proxy: { '/v1': service, '/media': service, '/_local': service },
  },
  build: {
    target: 'es2022',
    manifest: true,
    sourcemap: false,
    modulePreload: {
      // A module-preload polyfill would be an inline script; our CSP forbids those.
      polyfill: false,
      // The start files are preloaded from index.html. A lazily loaded page lists for preloading
      // only page-common (below), which the first page's own code needs: listing every dependency
      // names all ~110 files in the first page's script (~2 KB gzipped of it). The router loads a
      // page's code on intent (a link hovered or focused), which hides the one extra round trip the
      // rest of its shared files then take.
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : deps.filter((dep) => dep.includes('/page-common-'))),
    },
    rollupOptions: {
      output: {
        // What every page needs travels as one file: fewer requests, and gzip sees it whole. Only what
        // is loaded at start: a library module only lazy pages use (useQueries, useMutation, zod's
        // rarer schemas…) stays with those pages instead of weighing on the first one.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler|zod|@tanstack[\\/](react-router|router-core|history|react-query|query-core|react-store|store))[\\/]/,
            },
            // With the code every page loads at start (the shell, the client, the connection): one file.
            { name: 'start', tags: ['$initial'] },
            // The small modules the frontiers page (the bench's first page) shares with other pages: one
            // file rather than five of a few hundred bytes each, which gzip compresses apart.
            {
              name: 'page-common',
              test: /src[\\/](components[\\/]ui[\\/](field|table)\.tsx|lib[\\/]use-url-sorting\.ts|features[\\/]frontiers[\\/]queries\.ts)$|react-query[\\/]build[\\/]modern[\\/]useSuspenseQuery\.js$/,
            },
          ],
        },
      },
    },
  },
});
