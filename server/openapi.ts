import { Hono } from 'hono';
import { buildOpenApiDocument } from '../src/api/contract/openapi';

/** GET /v1/openapi.json: the interface's OpenAPI 3.1 document, public, built once from the contract. */
export function openApiRouter() {
  const router = new Hono();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/v1/openapi.json', (c) => {
    document ??= buildOpenApiDocument();
    c.header('Cache-Control', 'no-cache');
    return c.json(document, 200);
  });
  return router;
}
