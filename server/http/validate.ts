import type { Context } from 'hono';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { issuePath, type ErrorCode } from '../../src/api/contract';
import { ServiceError } from '../lib/service-error';

/**
 * Query and body checks as Hono validator middleware: a route declares `validQuery(schema)` or
 * `validJson(schema)` and reads `c.req.valid('query' | 'json')`, typed from the contract's schema.
 */

type Target = 'query' | 'json';

/** What a failed check is called on the wire (spec 7): a bad parameter or a bad body. */
const FAILURE = { query: 'INVALID_PARAMETER', json: 'INVALID_BODY' } as const satisfies Record<Target, ErrorCode>;

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issuePath(issue.path);
  return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
}

/** The one hook every validator goes through: the parsed value, or the contract's error naming what is wrong. */
function check<S extends z.ZodType>(target: Target, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ServiceError(FAILURE[target], describe(result.error));
  return result.data;
}

/**
 * Hono gives a repeated parameter as a list. Which one counts is ambiguous (a proxy, a cache or
 * another server may read the last), so a repeated parameter is refused rather than guessed.
 */
function singleValues(query: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => {
      if (Array.isArray(value) && value.length > 1) throw new ServiceError('INVALID_PARAMETER', `${name} must be given once, not ${value.length} times`);
      return [name, Array.isArray(value) ? value[0]! : value];
    }),
  );
}

/** Validates the query string; a failure is 400 INVALID_PARAMETER naming the parameter. */
export const validQuery = <S extends z.ZodType>(schema: S) => validator('query', (value) => check('query', schema, singleValues(value)));

const NOT_AN_OBJECT = 'request body must be a JSON object';

/** The body as a JSON object (read once; Hono caches it), or 400 INVALID_BODY. */
async function jsonObject(c: Context): Promise<object> {
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw new ServiceError('INVALID_BODY', NOT_AN_OBJECT);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ServiceError('INVALID_BODY', NOT_AN_OBJECT);
  return value;
}

/**
 * Validates a JSON body; anything that is not a JSON object, or fails the schema, is 400
 * INVALID_BODY. Hono's validator parses only bodies labelled application/json and answers
 * malformed JSON with its own bare 400, so the body is read here first: every body is read
 * as JSON, as the service always has, and every failure has the contract's error body.
 */
export function validJson<S extends z.ZodType>(schema: S) {
  const validate = validator('json', async (_labelled, c) => check('json', schema, await jsonObject(c)));
  const guarded: typeof validate = async (c, next) => {
    await jsonObject(c);
    return validate(c, next);
  };
  return guarded;
}
