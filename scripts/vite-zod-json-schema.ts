import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * The console never turns a schema into JSON Schema in the browser (docs/openapi.json is written
 * by scripts/write-openapi.ts, in Node), yet zod's classic schemas import that code (~6 KB gzipped
 * of the first page). In the browser build, zod's two JSON Schema modules are replaced by stand-ins
 * with the same exports, each throwing if ever called.
 *
 * One export is kept real: `aggregateChecks`, which zod's classic schemas read their checks
 * through at run time (`.minLength`, `.maxValue`, `.format`, … on a schema). The stand-in
 * re-exports it from zod's own module, and the bundler drops that module's other exports.
 * The export list is read from zod's own files, so an upgrade that renames them fails the
 * build rather than the page.
 *
 * Zod's English locale is swapped the same way for scripts/zod-compact-en.ts: zod's sentences
 * without its dictionary of string formats the console never checks.
 *
 * And zod's memoizer (~2 KB gzipped), which classic zod installs so that one parse can follow a
 * reference cycle in its input (an object graph that points back at itself) through a transform.
 * What the browser parses is JSON, which has no cycles; zod parses without a memoizer when none is
 * configured (as zod/mini does by default), skipping its bookkeeping on every array and object.
 * Its stand-in exports the same names (checked against zod's file, as above).
 */
const STUBBED = ['json-schema-processors.js', 'to-json-schema.js'];
/** Zod's English locale, replaced by the same sentences without the formats the console never checks (scripts/zod-compact-en.ts). */
const COMPACT_EN = fileURLToPath(new URL('./zod-compact-en.ts', import.meta.url));
const KEPT: Record<string, string[]> = { 'json-schema-processors.js': ['aggregateChecks'] };
const PREFIX = '\0zod-json-schema-stub:';
/** zod's memoizer.js, as the browser build has it: no memoizer (`memoizer()` → undefined), nothing ever recursive. */
const MEMOIZER = 'memoizer.js';
const MEMOIZER_STANDIN: Record<string, string> = {
  $ZodCyclicError: 'export class $ZodCyclicError extends Error {}',
  isRecursiveSchema: 'export const isRecursiveSchema = () => false;',
  memoizer: 'export const memoizer = () => undefined;',
  isBackEdge: 'export const isBackEdge = () => false;',
};

export function withoutZodJsonSchema(): Plugin {
  const coreDir = dirname(createRequire(import.meta.url).resolve('zod/v4/core'));
  return {
    name: 'dds:without-zod-json-schema',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]zod[\\/]v4[\\/]/.test(importer)) return null;
      if (/[\\/]classic[\\/]/.test(importer) && source.endsWith('/locales/en.js')) return COMPACT_EN;
      const file = [...STUBBED, MEMOIZER].find((name) => source.endsWith(`/${name}`));
      return file ? PREFIX + file : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length);
      const real = join(coreDir, file);
      const source = readFileSync(real, 'utf8');
      const names = [...source.matchAll(/^export (?:const|function|let|class) (\w+)/gm)].map((m) => m[1]!);
      const renamed = [...source.matchAll(/^export \{ (\w+) as (\w+) \}/gm)].map((m) => m[2]!);
      if (names.length === 0) throw new Error(`zod's ${file} has no exports this plugin recognises: check scripts/vite-zod-json-schema.ts`);
      if (file === MEMOIZER) {
        const unknown = [...names, ...renamed].filter((name) => !(name in MEMOIZER_STANDIN));
        if (unknown.length > 0) throw new Error(`zod's ${file} now exports ${unknown.join(', ')}: check scripts/vite-zod-json-schema.ts`);
        return Object.values(MEMOIZER_STANDIN).join('\n');
      }
      const kept = KEPT[file] ?? [];
      const missing = kept.filter((name) => !names.includes(name));
      if (missing.length > 0) throw new Error(`zod's ${file} no longer exports ${missing.join(', ')}: check scripts/vite-zod-json-schema.ts`);
      const fail = `() => { throw new Error('JSON Schema generation is not part of the browser build'); }`;
      // The classic schemas make these two when a schema's JSON Schema is asked for: they return the thrower.
      const stubs = [...names, ...renamed]
        .filter((name) => !kept.includes(name))
        .map((name) => (name.startsWith('create') ? `export const ${name} = () => ${fail};` : `export const ${name} = ${fail};`));
      const reexport = kept.length > 0 ? [`export { ${kept.join(', ')} } from ${JSON.stringify(real)};`] : [];
      return [...reexport, ...stubs].join('\n');
    },
  };
}
