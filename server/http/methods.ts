import { buildOpenApiDocument } from '../../src/api/contract/openapi';

/** Each documented path as a pattern, with the methods it answers (HEAD, always refused, aside). */
let routes: { pattern: RegExp; methods: string[] }[] | undefined;

function documentedRoutes() {
  routes ??= Object.entries(buildOpenApiDocument().paths as Record<string, Record<string, unknown>>).map(([path, operations]) => ({
    pattern: new RegExp(`^${path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
    methods: Object.keys(operations)
      .map((method) => method.toUpperCase())
      .filter((method) => method !== 'HEAD'),
  }));
  return routes;
}

/**
 * The methods a path of the interface answers, from the OpenAPI document (so the two cannot
 * disagree); empty when no documented path matches. A known path asked with another method is
 * 405 with these in Allow, not the 404 of a path that does not exist.
 */
export function allowedMethods(path: string): string[] {
  return documentedRoutes().find((route) => route.pattern.test(path))?.methods ?? [];
}
