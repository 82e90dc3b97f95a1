import { z } from './zod';
import { ERROR_STATUS, errorBodySchema, type ErrorCode } from './errors';
import { API_KEY_PATTERN, keyVerificationSchema } from './keys';
import { LIMITS, MAX_BODY_BYTES, type LimitName } from './limits';
import {
  deliveriesQuerySchema,
  frontiersQuerySchema,
  liveAdoptBodySchema,
  liveDisputeBodySchema,
  livePullQuerySchema,
  previewQuerySchema,
  simulatedPullQuerySchema,
  usageQuerySchema,
} from './requests';
import {
  deliveryItemSchema,
  deliverySchema,
  frontierSchema,
  frontierTaskSchema,
  liveSubmissionSchema,
  previewSubmissionSchema,
  receiptSchema,
  simulatedItemSchema,
  verticalSchema,
} from './resources';
import {
  deliveriesResponseSchema,
  deliveryItemsResponseSchema,
  frontiersResponseSchema,
  frontierTasksResponseSchema,
  liveFeedbackResponseSchema,
  livePullEnvelopeSchema,
  livePullFlatSchema,
  previewResponseSchema,
  simulatedFeedbackResponseSchema,
  simulatedPullResponseSchema,
  usageResponseSchema,
  verticalsResponseSchema,
} from './responses';

/**
 * The OpenAPI 3.1 document of the whole interface, built from the zod contract so the two can
 * never disagree: component schemas are `z.toJSONSchema` of the contract's schemas (JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is), the endpoint table below adds only what zod does not
 * know (paths, authentication, which error codes each endpoint can answer). Schemas are taken
 * on their input side: that is what travels on the wire, before the client's transforms.
 * Served at GET /v1/openapi.json and written to docs/openapi.json by `npm run openapi`.
 */

type JsonObject = Record<string, unknown>;

/** Named wire schemas, emitted once under components.schemas and referenced by $ref. */
const COMPONENTS = {
  Frontier: frontierSchema,
  FrontierTask: frontierTaskSchema,
  Vertical: verticalSchema,
  LiveSubmission: liveSubmissionSchema,
  PreviewSubmission: previewSubmissionSchema,
  SimulatedItem: simulatedItemSchema,
  Receipt: receiptSchema,
  Delivery: deliverySchema,
  DeliveryItem: deliveryItemSchema,
  KeyVerification: keyVerificationSchema,
  FrontiersResponse: frontiersResponseSchema,
  FrontierTasksResponse: frontierTasksResponseSchema,
  VerticalsResponse: verticalsResponseSchema,
  PreviewResponse: previewResponseSchema,
  LivePullEnvelope: livePullEnvelopeSchema,
  LivePullFlat: livePullFlatSchema,
  UsageResponse: usageResponseSchema,
  LiveFeedbackResponse: liveFeedbackResponseSchema,
  SimulatedPullResponse: simulatedPullResponseSchema,
  SimulatedFeedbackResponse: simulatedFeedbackResponseSchema,
  DeliveriesResponse: deliveriesResponseSchema,
  DeliveryItemsResponse: deliveryItemsResponseSchema,
  LiveAdoptBody: liveAdoptBodySchema,
  LiveDisputeBody: liveDisputeBodySchema,
  ErrorBody: errorBodySchema,
} satisfies Record<string, z.ZodType>;
type ComponentName = keyof typeof COMPONENTS;

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });

type Auth = 'none' | 'key' | 'jwt';

interface Operation {
  method: 'get' | 'post';
  /** OpenAPI path template; the spec's `<name>` is `{name}` here. */
  path: string;
  operationId: string;
  summary: string;
  /** Spec section, or where the decision is written down. */
  source: string;
  tag: Tag;
  auth: Auth;
  query?: z.ZodObject;
  /** Which of LIMITS the `limit` parameter follows. */
  limit?: LimitName;
  body?: ComponentName;
  /** The 200 body: a component, or a schema built from components. */
  response: ComponentName | JsonObject;
  /** Error codes this endpoint answers, besides authentication (from `auth`), 413 or 415 for bodies and 500. */
  errors: ErrorCode[];
}

const TAGS = {
  Catalog: 'Public frontiers, their tasks and simulated verticals (spec 4.1–4.3), and the JWT-protected task preview (4.4).',
  Keys: 'API key verification (spec 4.5, 5.8).',
  Live: 'Live data: pull with cursor pagination, usage receipts, adopt and dispute (spec 4.6–4.9).',
  Simulated: 'Simulated data: pull, adopt (charged) and dispute, deliveries and their items (spec 4.10–4.14).',
  Document: 'This OpenAPI document.',
} as const;
type Tag = keyof typeof TAGS;

const SUBSCRIPTION_ERRORS: ErrorCode[] = ['NO_DATA_ACCESS', 'SUBSCRIPTION_NOT_IN_SCOPE', 'NOT_FOUND'];

/** One `feedback` or `status` value pinned on a shared response schema: adopt answers adopt. */
const pinned = (name: ComponentName, field: string, value: string) => ({
  allOf: [ref(name), { type: 'object', properties: { [field]: { const: value } } }],
});

const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/v1/frontiers',
    operationId: 'listFrontiers',
    summary: 'List frontiers',
    source: 'spec 4.1',
    tag: 'Catalog',
    auth: 'none',
    query: frontiersQuerySchema,
    response: 'FrontiersResponse',
    errors: ['INVALID_PARAMETER'],
  },
  {
    method: 'get',
    path: '/v1/frontiers/{frontier_id}/tasks',
    operationId: 'listFrontierTasks',
    summary: "List a frontier's tasks",
    source: 'spec 4.2',
    tag: 'Catalog',
    auth: 'none',
    response: 'FrontierTasksResponse',
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/data/verticals',
    operationId: 'listVerticals',
    summary: 'List simulated verticals',
    source: 'spec 4.3',
    tag: 'Catalog',
    auth: 'none',
    response: 'VerticalsResponse',
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/frontiers/{frontier_id}/tasks/{task_id}/preview',
    operationId: 'previewTask',
    summary: "Preview a task's adopted submissions",
    source: 'spec 4.4',
    tag: 'Catalog',
    auth: 'jwt',
    query: previewQuerySchema,
    limit: 'preview',
    response: 'PreviewResponse',
    errors: ['INVALID_PARAMETER', 'NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/auth/verify-key',
    operationId: 'verifyKey',
    summary: 'Verify an API key',
    source: 'spec 4.5',
    tag: 'Keys',
    auth: 'key',
    response: 'KeyVerification',
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/live/pull',
    operationId: 'pullLive',
    summary: 'Pull live data (incremental, or a re-read from the beginning)',
    source: 'spec 4.6; docs/contract.md "Live pull"',
    tag: 'Live',
    auth: 'key',
    query: livePullQuerySchema,
    limit: 'livePull',
    // The service answers in one form, chosen at its start (--live-pull-form); a client accepts both.
    // Exactly one matches (`data` is an object in one, an array in the other), and each requires a
    // field the other does not declare (`success`; `has_more`, `count`), so a generated client can
    // narrow the union with `'has_more' in body`.
    response: { oneOf: [ref('LivePullEnvelope'), ref('LivePullFlat')] },
    errors: ['INVALID_PARAMETER', 'INVALID_CURSOR', ...SUBSCRIPTION_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/live/usage',
    operationId: 'listUsage',
    summary: "The organization's usage receipts, newest first",
    source: 'spec 4.7; docs/contract.md "Records the spec leaves open"',
    tag: 'Live',
    auth: 'key',
    query: usageQuerySchema,
    limit: 'usage',
    response: 'UsageResponse',
    errors: ['INVALID_PARAMETER'],
  },
  {
    method: 'post',
    path: '/v1/live/items/{submission_id}/adopt',
    operationId: 'adoptLive',
    summary: 'Adopt a live submission',
    source: 'spec 4.8',
    tag: 'Live',
    auth: 'key',
    body: 'LiveAdoptBody',
    response: pinned('LiveFeedbackResponse', 'feedback', 'adopt'),
    errors: ['INVALID_BODY', 'INVALID_PARAMETER', ...SUBSCRIPTION_ERRORS, 'FEEDBACK_CONFLICT'],
  },
  {
    method: 'post',
    path: '/v1/live/items/{submission_id}/dispute',
    operationId: 'disputeLive',
    summary: 'Dispute a live submission',
    source: 'spec 4.9',
    tag: 'Live',
    auth: 'key',
    body: 'LiveDisputeBody',
    response: pinned('LiveFeedbackResponse', 'feedback', 'dispute'),
    errors: ['INVALID_BODY', 'INVALID_PARAMETER', ...SUBSCRIPTION_ERRORS, 'FEEDBACK_CONFLICT'],
  },
  {
    method: 'get',
    path: '/v1/data/pull',
    operationId: 'pullSimulated',
    summary: "Pull a simulated subscription's pending items",
    source: 'spec 4.10',
    tag: 'Simulated',
    auth: 'key',
    query: simulatedPullQuerySchema,
    limit: 'simulatedPull',
    response: 'SimulatedPullResponse',
    errors: ['INVALID_PARAMETER', ...SUBSCRIPTION_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/data/items/{item_id}/adopt',
    operationId: 'adoptSimulated',
    summary: 'Adopt a simulated item (charges its unit_price_usd)',
    source: 'spec 4.11',
    tag: 'Simulated',
    auth: 'key',
    response: pinned('SimulatedFeedbackResponse', 'status', 'adopted'),
    errors: [...SUBSCRIPTION_ERRORS, 'FEEDBACK_CONFLICT'],
  },
  {
    method: 'post',
    path: '/v1/data/items/{item_id}/dispute',
    operationId: 'disputeSimulated',
    summary: 'Dispute a simulated item (no charge)',
    source: 'spec 4.12',
    tag: 'Simulated',
    auth: 'key',
    response: pinned('SimulatedFeedbackResponse', 'status', 'disputed'),
    errors: [...SUBSCRIPTION_ERRORS, 'FEEDBACK_CONFLICT'],
  },
  {
    method: 'get',
    path: '/v1/data/deliveries',
    operationId: 'listDeliveries',
    summary: "The organization's deliveries, newest first",
    source: 'spec 4.13; docs/contract.md "Records the spec leaves open"',
    tag: 'Simulated',
    auth: 'key',
    query: deliveriesQuerySchema,
    limit: 'deliveries',
    response: 'DeliveriesResponse',
    errors: ['INVALID_PARAMETER'],
  },
  {
    method: 'get',
    path: '/v1/data/deliveries/{delivery_id}/items',
    operationId: 'listDeliveryItems',
    summary: 'All items of one delivery, with their status',
    source: 'spec 4.14; docs/contract.md "Records the spec leaves open"',
    tag: 'Simulated',
    auth: 'key',
    response: 'DeliveryItemsResponse',
    // Reading a delivery's items is reading data (spec 5.5): data access and the subscription's scope.
    errors: [...SUBSCRIPTION_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    source: 'not in the spec: generated from the contract',
    tag: 'Document',
    auth: 'none',
    response: { type: 'object', description: 'An OpenAPI 3.1 document.' },
    errors: [],
  },
];

const AUTH_ERRORS: Record<Auth, ErrorCode[]> = {
  none: [],
  key: ['MISSING_API_KEY', 'INVALID_API_KEY', 'KEY_REVOKED', 'KEY_EXPIRED'],
  jwt: ['INVALID_TOKEN'],
};

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  key: [{ apiKey: [] }],
  jwt: [{ dashboardJwt: [] }],
};

/**
 * What any request can be answered, before its endpoint sees it (server/http): a malformed
 * request, an ID outside the ID rule or a repeated parameter (400), a request not received in
 * time (408), a Host the service does not answer (421), headers too large (431).
 */
const TRANSPORT_ERRORS: ErrorCode[] = ['INVALID_PARAMETER', 'REQUEST_TIMEOUT', 'MISDIRECTED_REQUEST', 'HEADERS_TOO_LARGE'];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request not received in time',
  409: 'Conflict with the recorded decision',
  413: 'Request body too large',
  415: 'A request body where the operation takes none',
  421: 'Misdirected request: a Host this service does not answer',
  431: 'Request headers too large',
  500: 'Internal error',
};

/** Without the per-schema `$schema`/`$id` that toJSONSchema adds: inside an OpenAPI document the dialect is the document's. */
function strip(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

const inputSchema = (schema: z.ZodType) => strip(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonObject);

/**
 * Without `additionalProperties: {}` on objects that list their properties. The contract's objects
 * are loose (a field a server adds is kept: `z.looseObject`), which zod writes as that empty
 * schema; JSON Schema allows any further property without it too, so validation is unchanged,
 * but a generator (openapi-typescript) turns it into an index signature of `unknown` that makes
 * every misspelled field, and `has_more` across the two live-pull forms, typed `unknown`. Maps
 * without listed properties (a payload) keep it: there it is the whole type.
 */
function withoutOpenEnds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutOpenEnds);
  if (!node || typeof node !== 'object') return node;
  const object = node as JsonObject;
  const open = object.additionalProperties;
  const onlyWeakens = object.properties !== undefined && open !== null && typeof open === 'object' && Object.keys(open).length === 0;
  return Object.fromEntries(
    Object.entries(object)
      .filter(([name]) => !(onlyWeakens && name === 'additionalProperties'))
      .map(([name, value]) => [name, withoutOpenEnds(value)]),
  );
}

function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'input', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutOpenEnds(strip(schema as JsonObject)) as JsonObject]));
}

/** `limit` as the service reads it: a plain decimal integer in the range, never clamped (spec 8). */
function limitParameterSchema(name: LimitName): JsonObject {
  const { min, max, default: fallback } = LIMITS[name];
  return { type: 'integer', minimum: min, maximum: max, default: fallback };
}

const PARAMETER_NOTES: Record<string, string> = {
  status: '`online` = live sources, `all` = include historical.',
  subscription_id: 'The subscription to read.',
  limit: 'Items per page: a plain decimal integer in the range (0, 1.5, 1e2 or an empty value are 400, never clamped).',
  from: '`beginning`: a re-read from the start, which never moves the subscription; without it (and without a cursor) the pull is incremental.',
  cursor: 'For re-read paging: the `next_cursor` of the previous page, unchanged, with the same subscription and filters.',
  task_ids: 'Re-reads only: comma-separated task IDs that narrow the range (never widen it).',
  campaign_ids: 'Re-reads only: comma-separated campaign IDs that narrow the range (never widen it).',
};

function queryParameters(operation: Operation): JsonObject[] {
  if (!operation.query) return [];
  return Object.entries(operation.query.shape).map(([name, field]) => {
    const schema = name === 'limit' && operation.limit ? limitParameterSchema(operation.limit) : inputSchema(field as z.ZodType);
    return {
      name,
      in: 'query',
      required: !(field as z.ZodType).safeParse(undefined).success,
      description: PARAMETER_NOTES[name],
      schema,
    };
  });
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: `The ${name.replace(/_/g, ' ').replace(/ id$/, '')}'s ID.`,
    schema: { type: 'string', minLength: 1 },
  }));
}

/** The error envelope per status, its `errorCode` narrowed to the codes this endpoint can answer there. */
function errorResponses(operation: Operation): Record<string, JsonObject> {
  const codes = new Set<ErrorCode>([...TRANSPORT_ERRORS, ...AUTH_ERRORS[operation.auth], ...operation.errors, 'INTERNAL_ERROR']);
  // An operation that takes a body refuses one too large; one that takes none refuses any (docs/contract.md "Request bodies").
  codes.add(operation.body ? 'BODY_TOO_LARGE' : 'UNEXPECTED_BODY');
  return envelopes(codes);
}

/** `Allow` on a 405: the methods the path answers. */
const ALLOW_HEADER = { Allow: { description: 'The methods this path answers.', required: true, schema: { type: 'string' } } };

/** The statuses of these codes, each with the codes that answer it, in the error table's order. */
function byStatus(codes: ReadonlySet<ErrorCode>): Map<number, ErrorCode[]> {
  const statuses = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    const status = ERROR_STATUS[code];
    statuses.set(status, [...(statuses.get(status) ?? []), code]);
  }
  return statuses;
}

function envelopes(codes: ReadonlySet<ErrorCode>): Record<string, JsonObject> {
  return Object.fromEntries(
    [...byStatus(codes)].map(([status, statusCodes]) => {
      const narrowed: JsonObject = { type: 'object', properties: { errorCode: { enum: statusCodes } } };
      if (statusCodes.includes('FEEDBACK_CONFLICT')) {
        // Our addition (docs/contract.md): the decision the service already holds.
        narrowed.properties = { errorCode: { enum: statusCodes }, recorded: { enum: ['adopt', 'dispute', 'adopted', 'disputed'] } };
        narrowed.required = ['recorded'];
      }
      return [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? 'Error'}: ${statusCodes.join(', ')}`,
          content: { 'application/json': { schema: { allOf: [ref('ErrorBody'), narrowed] } } },
        },
      ];
    }),
  );
}

function operationObject(operation: Operation): JsonObject {
  const parameters = [...pathParameters(operation.path), ...queryParameters(operation)];
  const response = typeof operation.response === 'string' ? ref(operation.response) : operation.response;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `Source: ${operation.source}.`,
    tags: [operation.tag],
    security: SECURITY[operation.auth],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(operation.body) } } } } : {}),
    responses: {
      '200': { description: 'Success', content: { 'application/json': { schema: response } } },
      ...errorResponses(operation),
    },
  };
}

/**
 * HEAD on a GET path: refused with 405 (server/http/guards.ts), since a HEAD runs the GET and
 * drops its answer, and a HEAD on the incremental pull would move the subscription for nothing.
 * Documented so that a client generated from this document knows. A HEAD answer never has a
 * body, so no response here declares content, and the service sends none and no Content-Type
 * (a 405 that claimed JSON with an empty body could not be parsed; found by Prism).
 */
function headObject(operation: Operation): JsonObject {
  const statuses = byStatus(new Set<ErrorCode>(['METHOD_NOT_ALLOWED', ...TRANSPORT_ERRORS]));
  const parameters = [...pathParameters(operation.path), ...queryParameters(operation).map((parameter) => ({ ...parameter, required: false }))];
  return {
    operationId: `head${operation.operationId[0]!.toUpperCase()}${operation.operationId.slice(1)}`,
    summary: `HEAD ${operation.path}: refused, use GET`,
    description:
      'HEAD is never served on the API: a HEAD would run the GET and drop its answer. The answer is 405 with `Allow: GET`, without a body or a Content-Type.',
    tags: [operation.tag],
    security: [],
    // The GET's parameters, none required: whatever the query, a HEAD is the same 405.
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: Object.fromEntries(
      [...statuses].map(([status, codes]) => [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}, without a body${status === 405 ? ' (Allow: GET)' : ''}`,
          ...(status === 405 ? { headers: ALLOW_HEADER } : {}),
        },
      ]),
    ),
  };
}

export function buildOpenApiDocument(): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
      ...(operation.method === 'get' ? { head: headObject(operation) } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Data Delivery Service',
      version: '1',
      description: [
        'The Data Delivery Service interface (shared/spec/data-delivery-service-interface.md) as this repository implements it,',
        'generated from its zod contract (src/api/contract). Where the spec is silent the decisions are in docs/contract.md.',
        `Every failure is the JSON error envelope with its HTTP status; request bodies are limited to ${MAX_BODY_BYTES} bytes,`,
        'and an operation described without a request body refuses one (any Content-Length above 0, or a Transfer-Encoding) with 415 UNEXPECTED_BODY.',
        'A documented path asked with a method it does not answer is 405 METHOD_NOT_ALLOWED with `Allow`; HEAD is always 405, without a body or a Content-Type.',
        'Objects may carry fields not listed here: a client keeps or ignores them, never fails on them.',
        'Any request may also be refused before its endpoint sees it: 400 (malformed), 408 (not received in time), 421 (a Host',
        'the service does not answer; start it with --allowed-host) or 431 (headers too large).',
      ].join(' '),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:8787', description: 'The local service (npm start); a real deployment has its own base URL.' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: `Spec 5.1: \`Authorization: Bearer <API_KEY>\`; a key matches ${API_KEY_PATTERN.source}.`,
        },
        dashboardJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Spec 5.3: the dashboard session token (HS256, audience dds-dashboard), `Authorization: Bearer <JWT>`.',
        },
      },
    },
  };
}

/** The document as docs/openapi.json holds it: two-space JSON with a final newline. */
export const openApiJson = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
