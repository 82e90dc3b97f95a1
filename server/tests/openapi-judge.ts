import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { OpenAPIBackend, type Operation } from 'openapi-backend';

/*
 * The outside judge of the integration tests (issue 23, item 10): every request a test sends to
 * the service and every answer it gets are checked against docs/openapi.json, the committed
 * document, by third-party code (openapi-backend for routing and parameters, Ajv in JSON Schema
 * 2020-12 mode, the dialect of OpenAPI 3.1) and never against our zod schemas. What the two
 * libraries leave out (is the status declared, does the Content-Type match the declared content,
 * is a body sent where none is described, is the bearer credential there) is checked here from
 * the document. Violations are recorded, not thrown, so a test still sees the answer it asked for;
 * judge-setup.ts fails the file at its end when any was recorded.
 */

/**
 * `invalid`: a request a test sends outside the document on purpose (a bad parameter, a missing
 * key, an undocumented method, a fuzzed one): the request is not held to the document, its answer
 * is, as every other. Some are invalid only by the contract's words, which a JSON Schema validator
 * cannot see (`limit=1e2` coerces to an integer), so a marked request is not required to fail.
 */
export type RequestMark = 'invalid';

export interface JudgedRequest {
  method: string;
  /** Path and query as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface JudgedResponse {
  status: number;
  headers: Headers;
  body: string;
}

type Json = Record<string, any>;

const DOCUMENT_FILE = new URL('../../docs/openapi.json', import.meta.url);

let backend: Promise<{ api: OpenAPIBackend; document: Json; errorBody: (value: unknown) => string[] }> | undefined;

function load() {
  backend ??= (async () => {
    const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;
    const api = new OpenAPIBackend({
      definition: structuredClone(document) as never,
      strict: true,
      // The service routes strictly: /v1/frontiers/ is a 404, not /v1/frontiers.
      ignoreTrailingSlashes: false,
      // quick: skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only
      // (npm run openapi:lint checks the document's structure as 3.1).
      quick: true,
      // openapi-backend's own Ajv speaks draft-07; OpenAPI 3.1 schemas are JSON Schema 2020-12.
      customizeAjv: (_ajv, options) => new Ajv2020({ ...options, strict: false }),
    });
    await api.init();
    // The envelope an answer to a request outside the document must still be (the 404 of an unknown path, a 405).
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: document.components });
    const validateErrorBody = ajv.compile({ $ref: 'doc#/components/schemas/ErrorBody' });
    const errorBody = (value: unknown) =>
      validateErrorBody(value) ? [] : (validateErrorBody.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
    return { api, document, errorBody };
  })();
  return backend;
}

const violations: string[] = [];
let judged = 0;

/** What was recorded in this test file so far. */
export const judgeRecord = () => ({ violations: [...violations], judged });

const mediaType = (value: string | null | undefined) => (value ?? '').split(';')[0]!.trim().toLowerCase();

function statusKey(responses: Json, status: number): string | undefined {
  const exact = String(status);
  if (responses[exact]) return exact;
  const range = `${exact[0]}XX`;
  if (responses[range]) return range;
  return responses.default ? 'default' : undefined;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The request's problems against the document: empty when it is one the document describes. */
function requestProblems(api: OpenAPIBackend, operation: Operation, request: JudgedRequest, url: { pathname: string; search: string }): string[] {
  const problems: string[] = [];
  const hasBody = request.body !== undefined && request.body.length > 0;
  const bodyJson = hasBody ? tryJson(request.body!) : undefined;
  try {
    const check = api.validateRequest(
      {
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers: request.headers,
        body: bodyJson?.ok ? bodyJson.value : request.body,
      },
      operation,
    );
    problems.push(...(check.errors ?? []).map((e) => `${e.instancePath || e.schemaPath} ${e.message ?? ''}`.trim()));
  } catch (error) {
    // A path or query the validator cannot even decode (`%ZZ`) is no request the document describes.
    problems.push(`cannot be read: ${(error as Error).message}`);
  }
  const requestBody = operation.requestBody as Json | undefined;
  if (!requestBody && hasBody) problems.push('a request body, where the operation describes none');
  if (requestBody) {
    if (!hasBody && requestBody.required) problems.push('no request body, where one is required');
    if (hasBody && !Object.keys(requestBody.content ?? {}).includes(mediaType(request.headers['content-type']))) {
      problems.push(`request Content-Type ${request.headers['content-type'] ?? '(none)'} is not one the operation describes`);
    }
    if (hasBody && bodyJson && !bodyJson.ok) problems.push('the request body is not JSON');
  }
  const security = (operation.security ?? []) as Json[];
  if (security.length > 0 && !/^Bearer \S+$/.test(request.headers.authorization ?? '')) {
    problems.push('no Authorization: Bearer credential, where the operation requires one');
  }
  return problems;
}

/** The answer's problems against the declared response (or the error envelope, for a request outside the document). */
function responseProblems(
  api: OpenAPIBackend,
  errorBody: (value: unknown) => string[],
  operation: Operation | undefined,
  method: string,
  response: JudgedResponse,
): string[] {
  const problems: string[] = [];
  const type = mediaType(response.headers.get('content-type'));
  const isHead = method === 'HEAD';
  if (!operation) {
    if (response.status < 400) return [`status ${response.status} to a request the document does not describe`];
    if (isHead) return type ? [`Content-Type ${type} on a HEAD answer, which has no body`] : [];
    if (type !== 'application/json') return [`Content-Type ${type || '(none)'}, not the JSON error envelope`];
    const parsed = tryJson(response.body);
    return parsed.ok ? errorBody(parsed.value).map((p) => `error envelope: ${p}`) : ['a body that is not JSON'];
  }
  const responses = (operation.responses ?? {}) as Json;
  const key = statusKey(responses, response.status);
  if (!key) return [`status ${response.status} is not declared (declared: ${Object.keys(responses).join(', ')})`];
  const declared = responses[key] as Json;
  for (const [name, header] of Object.entries((declared.headers ?? {}) as Json)) {
    if ((header as Json).required && !response.headers.has(name)) problems.push(`header ${name} is declared required and missing`);
  }
  const content = (declared.content ?? {}) as Json;
  const types = Object.keys(content);
  if (types.length === 0) {
    // Nothing declared: no body, and no Content-Type claiming one (a client would try to parse it).
    if (type) problems.push(`Content-Type ${type} on an answer declared without content`);
    if (response.body.length > 0) problems.push('a body on an answer declared without content');
    return problems;
  }
  if (!types.includes(type)) return [...problems, `Content-Type ${type || '(none)'} is not one declared (${types.join(', ')})`];
  const parsed = tryJson(response.body);
  if (!parsed.ok) return [...problems, `a body that is not ${type}`];
  const check = api.validateResponse(parsed.value, operation, response.status);
  problems.push(...(check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`));
  return problems;
}

/**
 * The path and query of a request target as the service reads them: as a WHATWG URL, which is
 * what the Node adapter builds (dot segments, `%2e%2e` too, are resolved; an absolute-form target
 * loses its scheme and authority). A trailing slash stays: the service routes strictly.
 */
function splitTarget(target: string, host = 'judge.invalid'): { pathname: string; search: string } {
  // Neither a path nor an http(s) URL (`v1/frontiers`, `ftp://x/v1/…`, `*`): no path of any
  // document, so not judged (the fuzz suite holds such answers to the error envelope itself).
  if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) return { pathname: target, search: '' };
  try {
    // An origin-form target is read behind the Host, as the adapter does: `Host: localhost/x` moves the path.
    const url = target.startsWith('/') ? new URL(`http://${host}${target}`) : new URL(target);
    return { pathname: url.pathname, search: url.search };
  } catch {
    return { pathname: '/', search: '' };
  }
}

/**
 * Judges one exchange and records its violations. Paths outside /v1 (the console, its media, the
 * local demo connection) are not the interface's and are not judged; a CORS preflight is the
 * browser's, answered before any operation, and is not judged either.
 */
export async function judgeExchange(request: JudgedRequest, response: JudgedResponse, mark?: RequestMark): Promise<void> {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const url = splitTarget(request.target, headers.host);
  if (!/^\/v1(\/|$)/i.test(url.pathname)) return;
  const method = request.method.toUpperCase();
  if (method === 'OPTIONS' && headers['access-control-request-method']) return;
  const { api, errorBody } = await load();
  judged += 1;
  const label = `${method} ${url.pathname}${url.search ? '?…' : ''} → ${response.status}`;
  let operation: Operation | undefined;
  try {
    operation = api.matchOperation({ method, path: url.pathname, query: url.search.slice(1), headers }) as Operation | undefined;
  } catch {
    operation = undefined;
  }

  const problems = operation ? requestProblems(api, operation, { ...request, headers }, url) : ['no operation of the document matches'];
  if (mark !== 'invalid') violations.push(...problems.map((p) => `${label}: request: ${p}`));
  violations.push(...responseProblems(api, errorBody, operation, method, response).map((p) => `${label}: response: ${p}`));
}

/**
 * fetch, judged: the exchange is checked against the document and recorded, and the answer is
 * returned as fetch would (its body already read, so readable once more).
 */
export async function judgedFetch(url: string, init: RequestInit = {}, mark?: RequestMark): Promise<Response> {
  const response = await fetch(url, init);
  const text = await response.text();
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const target = new URL(url);
  await judgeExchange(
    {
      method: init.method ?? 'GET',
      target: `${target.pathname}${target.search}`,
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
    },
    { status: response.status, headers: response.headers, body: text },
    mark,
  );
  const bodiless = init.method === 'HEAD' || [101, 204, 205, 304].includes(response.status);
  return new Response(bodiless ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
}
