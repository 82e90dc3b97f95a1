import createClient from 'openapi-fetch';
import type { paths } from './schema';

/*
 * A consumer of the Data Delivery Service written only from its OpenAPI document: the types are
 * openapi-typescript's (schema.d.ts, from docs/openapi.json), the calls openapi-fetch's. It reads
 * a live subscription from the beginning, page by page, in whichever of the two response forms
 * the service answers, without a cast: the forms are told apart by a field only one declares.
 * server/tests/generated-client.test.ts runs it against a real local service in both forms.
 */

export interface LiveRead {
  orgId: string;
  form: 'envelope' | 'flat';
  pages: number;
  submissionIds: string[];
  /** has_more of the last page read. */
  hasMore: boolean;
}

interface Page {
  form: LiveRead['form'];
  ids: string[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Reads up to `maxPages` pages of `limit` submissions of a live subscription, re-reading from the beginning. */
export async function readLive(
  baseUrl: string,
  apiKey: string,
  subscriptionId: string,
  options: { limit?: number; maxPages?: number; fetch?: (request: Request) => Promise<Response> } = {},
): Promise<LiveRead> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` }, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const verified = await client.POST('/v1/auth/verify-key');
  if (verified.error) throw new Error(`verify-key: ${verified.error.errorCode}: ${verified.error.errorMessage}`);
  const orgId: string = verified.data.org_id;

  const submissionIds: string[] = [];
  let cursor: string | null = null;
  let last: Page | undefined;
  let pages = 0;
  while (pages < (options.maxPages ?? 3)) {
    const query = cursor
      ? { subscription_id: subscriptionId, limit: options.limit ?? 5, cursor }
      : { subscription_id: subscriptionId, limit: options.limit ?? 5, from: 'beginning' as const };
    const { data, error } = await client.GET('/v1/live/pull', { params: { query } });
    if (error) throw new Error(`live pull: ${error.errorCode}: ${error.errorMessage}`);
    pages += 1;
    last = toPage(data);
    submissionIds.push(...last.ids);
    if (!last.hasMore || !last.nextCursor) break;
    cursor = last.nextCursor;
  }
  if (!last) throw new Error('no page was read');
  return { orgId, form: last.form, pages, submissionIds, hasMore: last.hasMore };
}

type LivePull = paths['/v1/live/pull']['get']['responses'][200]['content']['application/json'];

/** The two forms of one page: the flat one declares `has_more` beside `data`, the envelope inside it. */
function toPage(body: LivePull): Page {
  // What must not compile: a misspelled field is an error, not an `unknown` (reading it is harmless).
  // @ts-expect-error `has_mroe` is declared by neither form.
  void body.has_mroe;
  // @ts-expect-error `has_more` is not on the envelope, so not on the union until it is narrowed.
  void body.has_more;
  if ('has_more' in body) {
    // @ts-expect-error a submission has `submission_id`, not `submision_id`.
    void body.data[0]?.submision_id;
    // has_more and next_cursor are typed boolean and string | null here, not unknown.
    const hasMore: boolean = body.has_more;
    return { form: 'flat', ids: body.data.map((item) => item.submission_id), hasMore, nextCursor: body.next_cursor || null };
  }
  const { items, has_more: hasMore, next_cursor: nextCursor } = body.data;
  return { form: 'envelope', ids: items.map((item) => item.submission_id), hasMore, nextCursor: nextCursor || null };
}
