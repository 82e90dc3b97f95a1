#!/usr/bin/env node
// The house's two coupling measures (issue 24), in plain Node so lint can run it without a build:
//  - feature→feature import edges: src/features/<a> importing src/features/<b> (a ≠ b), counted once
//    per pair, `import type` and `export … from` and `import()` included (import-x/no-cycle ignores
//    type-only imports, so cycles through them are reported here too);
//  - module-level mutable bindings in src/: a top-level `let`/`var`, or a top-level `const` holding an
//    empty new Map/Set/WeakMap/WeakSet or an empty array/object literal (a cache, a registry, a
//    listener list), unless typed readonly. A collection built with its contents (`new Set([…])`)
//    is a constant table, not state, and is not counted.
// A binding that only caches a value computed once and never changed after (a formatter, a parsed
// table) may say so on the line above it with a comment holding `house: computed once`; it is listed
// apart and not counted, so the reason stays next to the code. So is a memo made with src/lib/memo.ts
// (`new WeakMemo`, `lastResult(…)`): it holds only what is derived from an input never changed in
// place, kept by that input's identity, so dropping it changes nothing but time (memo.ts says so,
// and holds nothing else); it is listed apart too.
// Tests (*.test.ts(x), src/test/) are not counted. Prettier puts every module-level declaration in
// column 0, which is what "module-level" means here.
//
// Usage: node scripts/house-metrics.mjs [--max-edges=N] [--max-mutable=N] [--no-cycles] [root]
// Exits 1 when a count is above its limit, or when features import each other in a cycle and
// --no-cycles is given.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { cyclesOf } from './strongly-connected.mjs';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const root = resolve(args.find((a) => !a.startsWith('--')) ?? process.cwd());
const maxEdges = option('max-edges') === undefined ? Infinity : Number(option('max-edges'));
const maxMutable = option('max-mutable') === undefined ? Infinity : Number(option('max-mutable'));
const refuseCycles = args.includes('--no-cycles');

const rel = (file) => relative(root, file).split(sep).join('/');
const isTest = (path) => /\.test\.tsx?$/.test(path) || path.includes('/test/');

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !isTest(rel(path))) out.push(path);
  }
  return out;
}

// `import … from '…'`, `import type …`, `export … from '…'` (across lines), `import '…'` and `import('…')`.
const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const featureOf = (path) => /^src\/features\/([^/]+)(?:\/|$)/.exec(path)?.[1];

const LET = /^(?:export\s+)?(?:let|var)\s/;
const CONST = /^(?:export\s+)?const\s+\w+(?:\s*:\s*([^=]+?))?\s*=\s*(.*)$/;
const MEMO = /^(?:export\s+)?const\s+\w+\s*=\s*(?:new\s+WeakMemo\b|lastResult\()/;

/** Whether an initialiser starts an empty collection or literal: `new Map()`, `new Set<() => void>()`, `[]`, `{}`. */
function emptyState(init) {
  if (/^(?:\[\s*\]|\{\s*\})\s*;?\s*$/.test(init)) return true;
  const m = /^new\s+(?:Map|Set|WeakMap|WeakSet)\b/.exec(init);
  if (!m) return false;
  let rest = init.slice(m[0].length);
  if (rest.startsWith('<')) {
    // skip the type arguments, which may hold arrows (`Set<() => void>`)
    let depth = 0;
    let i = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === '<') depth++;
      else if (rest[i] === '>' && rest[i - 1] !== '=') depth--;
      if (depth === 0) break;
    }
    rest = rest.slice(i + 1);
  }
  return /^\(\s*\)/.test(rest);
}

function isMutable(line) {
  if (LET.test(line)) return true;
  const m = CONST.exec(line);
  return m !== null && !/^\s*(?:readonly\b|Readonly)/.test(m[1] ?? '') && emptyState(m[2]);
}

const edges = new Map(); // "a -> b" → files
const mutable = [];
const computedOnce = [];
const memos = [];
for (const file of sources(join(root, 'src'))) {
  const from = rel(file);
  const text = readFileSync(file, 'utf8');
  const fromFeature = featureOf(from);
  if (fromFeature) {
    for (const m of text.matchAll(IMPORT)) {
      const specifier = m[1] ?? m[2];
      if (!specifier.startsWith('.')) continue;
      const toFeature = featureOf(rel(resolve(dirname(file), specifier)));
      if (!toFeature || toFeature === fromFeature) continue;
      const key = `${fromFeature} -> ${toFeature}`;
      if (!edges.has(key)) edges.set(key, new Set());
      edges.get(key).add(from);
    }
  }
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (MEMO.test(line)) memos.push(`${from}:${i + 1}  ${line.trim().slice(0, 90)}`);
    if (!isMutable(line)) return;
    const entry = `${from}:${i + 1}  ${line.trim().slice(0, 90)}`;
    if (i > 0 && /\/\/.*house: computed once/.test(lines[i - 1])) computedOnce.push(entry);
    else mutable.push(entry);
  });
}

// Cycles between features: strongly connected components of more than one feature (Tarjan).
function cycles() {
  const graph = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (!graph.has(a)) graph.set(a, []);
    if (!graph.has(b)) graph.set(b, []);
    graph.get(a).push(b);
  }
  return cyclesOf(graph);
}

const sorted = [...edges.keys()].sort();
console.log('Feature → feature import edges (type-only included):');
for (const key of sorted) console.log(`  ${key.padEnd(34)} ${[...edges.get(key)].sort().join(', ')}`);
const importers = new Set(sorted.map((k) => k.split(' -> ')[0]));
console.log(`edges: ${edges.size} (limit ${maxEdges}); features importing another: ${importers.size}\n`);

console.log('Module-level mutable bindings:');
for (const line of mutable) console.log(`  ${line}`);
console.log(`mutable bindings: ${mutable.length} (limit ${maxMutable})`);
if (computedOnce.length > 0) {
  console.log('Computed once and never changed (marked `house: computed once`, not counted):');
  for (const line of computedOnce) console.log(`  ${line}`);
}
if (memos.length > 0) {
  console.log('Memos (src/lib/memo.ts: derived from an input never changed in place; dropping one changes only time), not counted:');
  for (const line of memos) console.log(`  ${line}`);
}
console.log('');

const loops = cycles();
for (const loop of loops) console.log(`cycle between features: ${loop.join(' ⇄ ')}`);
console.log(`feature cycles: ${loops.length}`);

const failures = [];
if (edges.size > maxEdges) failures.push(`${edges.size} feature→feature edges, at most ${maxEdges} allowed`);
if (mutable.length > maxMutable) failures.push(`${mutable.length} module-level mutable bindings, at most ${maxMutable} allowed`);
if (refuseCycles && loops.length > 0) failures.push(`${loops.length} import cycle(s) between features`);
for (const failure of failures) console.error(`house-metrics: ${failure}`);
process.exitCode = failures.length > 0 ? 1 : 0;
