import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHubOpenApiDocument, hubOpenApiJson, hubOperationErrors } from '../../../src/api/contract/hub-openapi';
import { createHubApp } from '../../hub/app';
import { HUB_ERROR_STATUS } from '../../hub/errors';
import type { HubContext } from '../../hub/http/context';
import { startTestHub, type TestHub } from './hub-harness';

/*
 * The hub's OpenAPI document (docs/hub-openapi.json, `npm run openapi`): committed as generated,
 * naming every /hub/v1 route the hub answers and no other, each error code with the status the hub
 * gives it, and describing the answers real requests get (Ajv, JSON Schema 2020-12, never our zod).
 */

type Document = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
const doc = buildHubOpenApiDocument() as unknown as Document;

describe('the hub OpenAPI document', () => {
  it('is committed as npm run openapi writes it', () => {
    expect(readFileSync(new URL('../../../docs/hub-openapi.json', import.meta.url), 'utf8')).toBe(hubOpenApiJson());
  });

  it('lists exactly the /hub/v1 routes the hub registers', () => {
    const app = createHubApp({} as HubContext);
    const registered = new Set(
      app.routes
        .filter((r) => r.path.startsWith('/hub/v1/') && r.method !== 'ALL')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`),
    );
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`)));
    expect([...documented].sort()).toEqual([...registered].sort());
  });

  it('gives each error code the status the hub answers it with', () => {
    for (const [code, status] of hubOperationErrors()) expect([code, status]).toEqual([code, HUB_ERROR_STATUS[code as keyof typeof HUB_ERROR_STATUS]]);
  });
});

describe('the hub OpenAPI document against real answers', () => {
  let t: TestHub;
  let admin = '';
  const ajv = new Ajv2020({ strict: false });
  beforeAll(async () => {
    t = await startTestHub('sqlite');
    admin = await t.signIn(t.accounts.admin);
    ajv.addSchema(buildHubOpenApiDocument(), 'hub');
  });
  afterAll(() => t?.close());

  /** The answer checked against the document's schema for its path, method and status. */
  async function judged(method: string, path: string, template: string, body?: unknown) {
    const answer = await t.call(method, path, { cookie: admin, body });
    const response = doc.paths[template]?.[method.toLowerCase()]?.responses[String(answer.status)];
    expect(response, `${method} ${path} → ${answer.status} is documented`).toBeDefined();
    const schema = response!.content?.['application/json']?.schema;
    if (schema) {
      const validate = ajv.compile({
        $ref: `hub#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D')}/${method.toLowerCase()}/responses/${answer.status}/content/application~1json/schema`,
      });
      expect(validate(answer.body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    return answer;
  }

  it('describes the answers of every read, a settings save and refusals', async () => {
    await judged('PUT', '/hub/v1/settings', '/hub/v1/settings', { reason_codes: [{ code: 'blurry', label: 'Blurry' }], lots: [{ id: 'l1', name: 'Lot 1' }] });
    await judged('GET', '/hub/v1/settings', '/hub/v1/settings');
    await judged('GET', '/hub/v1/me', '/hub/v1/me');
    await judged('GET', '/hub/v1/members', '/hub/v1/members');
    const token = await judged('POST', '/hub/v1/tokens', '/hub/v1/tokens', { name: 'doc', scope: 'read', subscriptions: ['*'], expires_in_days: 1 });
    await judged('GET', '/hub/v1/tokens', '/hub/v1/tokens');
    await judged('DELETE', `/hub/v1/tokens/${token.body.access_token.id}`, '/hub/v1/tokens/{id}');
    await judged('GET', '/hub/v1/audit?limit=5', '/hub/v1/audit');
    await judged('GET', '/hub/v1/vendor-keys', '/hub/v1/vendor-keys');
    await judged('PUT', '/hub/v1/settings', '/hub/v1/settings', { reason_codes: 'none' });
    await judged('DELETE', '/hub/v1/members/nobody', '/hub/v1/members/{id}');
    await judged('GET', '/hub/v1/audit/export?format=pdf', '/hub/v1/audit/export');
    expect((await judged('GET', '/hub/v1/audit/export?format=csv', '/hub/v1/audit/export')).status).toBe(200);
  });
});
