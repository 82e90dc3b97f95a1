// Import cycles in src/, type-only imports included: import-x/no-cycle skips `import type`
// (eslint-plugin-import-x's no-cycle ignores type imports without an option to count them), and
// a cycle of types is still two modules that cannot be understood, moved or changed apart.
// Reads every import, export-from and import() of src/ (relative specifiers only), resolves them
// to files, and fails, naming each cycle, when the graph has one (Tarjan's strongly connected components).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { cyclesOf } from './strongly-connected.mjs';

const root = resolve(process.argv[2] ?? 'src');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
};
walk(root);

const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*|\bexport\s+(?:type\s+)?[^'";]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const resolveFile = (from, specifier) => {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
};

const edges = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const targets = new Set();
  for (const match of text.matchAll(SPECIFIER)) {
    const target = resolveFile(file, match[1]);
    if (target) targets.add(target);
  }
  edges.set(file, [...targets]);
}

// Tarjan, iterative enough for src/ (recursion depth is the longest import chain).
const cycles = cyclesOf(edges);

const name = (file) => relative(process.cwd(), file);
// Known type-only cycles of other areas, found when this check came (issue 24): each is two files
// of one feature naming each other's types. Listed so the check guards every other cycle now; the
// entry goes when its cycle does (a listed cycle that grows or changes fails like a new one).
const KNOWN = new Set(['src/features/export/manifest.ts src/features/export/writer.ts', 'src/features/sampling/decision.ts src/features/sampling/lot.ts']);
const unknown = cycles.filter((component) => !KNOWN.has(component.map(name).sort().join(' ')));
if (unknown.length) {
  console.error(`Import cycles in ${name(root)} (type-only imports included):`);
  for (const component of unknown) console.error(`  - ${component.map(name).sort().join('\n    ')}`);
  process.exit(1);
}
console.log(`No import cycles among ${files.length} files of ${name(root)} (type-only imports included).`);
