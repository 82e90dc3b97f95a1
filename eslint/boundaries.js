// Import boundaries of the house (docs/architecture.md), as a local ESLint rule:
//  - server/ imports nothing from src/ but src/api/contract/;
//  - src/ imports nothing from server/;
//  - src/api/ imports nothing from the UI layers (features, routes, components);
//  - shared layers (src/lib, src/components, src/api, src/data, src/domain) never import a feature, a route or
//    the app: they serve every feature, so they may not depend on one (bulletproof-react's zones);
//  - src/domain/ (the outbox core, the budgets' arithmetic: no React) imports no feature, route, app or
//    component: it may use src/api, src/lib and src/data, and features build on it;
//  - a feature never imports a route or the app: the app composes features, not the reverse;
//  - a feature uses another feature only through its public entry (index.ts).
// Import cycles are refused by import-x/no-cycle (eslint.config.js).
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
  const shared = /^src\/(lib|components|api|data|domain)\//.exec(from)?.[1];
  if (shared && /^src\/(features|routes|app)(\/|$)/.test(target)) {
    return `src/${shared}/ is shared: it must not import features, routes or the app (compose in src/app)`;
  }
  if (from.startsWith('src/domain/') && /^src\/(features|routes|app|components)(\/|$)/.test(target)) {
    return 'src/domain/ imports no feature, route, app or component: features build on the domain, not the reverse';
  }
  if (from.startsWith('src/features/') && /^src\/(routes|app)(\/|$)/.test(target)) {
    return 'a feature must not import routes or the app: the app composes features';
  }
  const headless = /^src\/(data|domain)\//.exec(from)?.[1];
  if (headless && /^src\/components\//.test(target)) {
    return `src/${headless}/ holds no UI: it must not import components`;
  }
  const fromFeature = /^src\/features\/([^/]+)\//.exec(from)?.[1];
  const targetFeature = /^src\/features\/([^/]+)(\/.*)?$/.exec(target);
  // Tests and benchmarks outside src/ (e2e/, bench/) may use a feature's pure modules directly, as its unit tests do.
  if (targetFeature && targetFeature[1] !== fromFeature && from.startsWith('src/')) {
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
