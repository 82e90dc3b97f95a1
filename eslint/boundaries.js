// Import boundaries of the house (docs/architecture.md), as a local ESLint rule:
//  - server/ imports nothing from src/ but src/api/contract/;
//  - src/ imports nothing from server/;
//  - src/api/ imports nothing from the UI layers (features, routes, components);
//  - a feature uses another feature only through its public entry (index.ts).
import { dirname, relative, resolve, sep } from 'node:path';

const root = process.cwd();
const rel = (file) => relative(root, file).split(sep).join('/');

function check(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const from = rel(fromFile);
  const target = rel(resolve(dirname(fromFile), specifier));
  if (from.startsWith('server/') && target.startsWith('src/') && !target.startsWith('src/api/contract')) {
    return 'server/ may import only src/api/contract from src/';
  }
  if (from.startsWith('src/') && target.startsWith('server/')) return 'src/ must not import from server/';
  if (from.startsWith('src/api/') && /^src\/(features|routes|components)\//.test(target)) {
    return 'src/api/ must not import UI code: data flows contract → client → queries → UI';
  }
  const fromFeature = /^src\/features\/([^/]+)\//.exec(from)?.[1];
  const targetFeature = /^src\/features\/([^/]+)(\/.*)?$/.exec(target);
  if (targetFeature && targetFeature[1] !== fromFeature) {
    const rest = targetFeature[2] ?? '';
    if (rest !== '' && rest !== '/index' && rest !== '/index.ts') {
      return `use the public entry of feature "${targetFeature[1]}" (src/features/${targetFeature[1]}/index.ts)`;
    }
  }
  if (from.startsWith('src/routes/') && /^src\/features\/[^/]+\/./.test(target) && !/\/index(\.ts)?$/.test(target)) {
    return 'routes use features through their public entry';
  }
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [], messages: { boundary: '{{reason}}' } },
  create(context) {
    const report = (node, source) => {
      const reason = check(context.filename, source);
      if (reason) context.report({ node, messageId: 'boundary', data: { reason } });
    };
    return {
      ImportDeclaration: (node) => report(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && report(node, node.source.value),
      ExportAllDeclaration: (node) => report(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && report(node, String(node.source.value)),
    };
  },
};

export default { rules: { imports: rule } };
