import { buildOpenApiDocument } from '../../src/api/contract/openapi';

interface DocumentedRoute {
  pattern: RegExp;
  /** The methods the path answers (HEAD, always refused, aside). */
  methods: string[];
  /** The methods whose operation describes a request body. */
  withBody: string[];
}

/** Each documented path as a pattern, with the methods it answers. */
let routes: DocumentedRoute[] | undefined;

function documentedRoutes() {
  routes ??= Object.entries(buildOpenApiDocument().paths as Record<string, Record<string, { requestBody?: unknown }>>).map(([path, operations]) => ({
    pattern: new RegExp(`^${path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
    methods: Object.keys(operations)
      .map((method) => method.toUpperCase())
      .filter((method) => method !== 'HEAD'),
    withBody: Object.entries(operations)
      .filter(([, operation]) => operation.requestBody !== undefined)
      .map(([method]) => method.toUpperCase()),
  }));
  return routes;
}

const routeOf = (path: string) => documentedRoutes().find((route) => route.pattern.test(path));

/**
 * The methods a path of the interface answers, from the OpenAPI document (so the two cannot
 * disagree); empty when no documented path matches. A known path asked with another method is
 * 405 with these in Allow, not the 404 of a path that does not exist.
 */
export function allowedMethods(path: string): string[] {
  return routeOf(path)?.methods ?? [];
}

/** Whether the document describes a request body for this operation; undefined when it is no operation of the document. */
export function takesBody(method: string, path: string): boolean | undefined {
  const route = routeOf(path);
  if (!route?.methods.includes(method)) return undefined;
  return route.withBody.includes(method);
}
