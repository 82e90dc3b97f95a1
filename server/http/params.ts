import type { Context } from 'hono';
import type { z } from 'zod';
import { issuePath } from '../../src/api/contract';
import { ApiError } from '../lib/api-error';

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issuePath(issue.path);
  return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
}

/** Validates the query string; a failure is 400 INVALID_PARAMETER naming the parameter. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw new ApiError('INVALID_PARAMETER', describe(result.error));
  return result.data;
}

/** Reads and validates a JSON body; anything else is 400 INVALID_BODY. */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('INVALID_BODY', 'request body must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('INVALID_BODY', 'request body must be a JSON object');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError('INVALID_BODY', describe(result.error));
  return result.data;
}
