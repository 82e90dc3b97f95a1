import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLive } from './generated-client/consumer';
import { generatedClientTypes } from './generated-client-types';
import { startHarness, type Harness } from './harness';
import { judgedFetch } from './openapi-judge';

/*
 * A client generated from docs/openapi.json (openapi-typescript types, openapi-fetch calls), as an
 * outside team would write it (issue 23, item 10): its types are what the document generates, it
 * compiles under strict without a cast (a misspelled field must not: its @ts-expect-error lines),
 * and it reads a real local service in both live-pull forms, every exchange judged by the document.
 */

const run = promisify(execFile);
const CLIENT = new URL('./generated-client/', import.meta.url);

let envelope: Harness;
let flat: Harness;
beforeAll(async () => {
  [envelope, flat] = await Promise.all([startHarness(), startHarness({ livePullForm: 'flat' })]);
});
afterAll(() => Promise.all([envelope?.close(), flat?.close()]));

/** openapi-fetch's fetch, through the outside judge. */
const judged = async (request: Request) =>
  judgedFetch(request.url, {
    method: request.method,
    headers: Object.fromEntries(request.headers.entries()),
    ...(request.body ? { body: await request.text() } : {}),
  });

describe('the generated client', () => {
  it('has the types openapi-typescript generates from docs/openapi.json (npm run openapi)', async () => {
    const document = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(readFileSync(new URL('schema.d.ts', CLIENT), 'utf8')).toBe(await generatedClientTypes(document));
  });

  it('compiles under strict, with no cast, and a misspelled field does not', async () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    const project = fileURLToPath(new URL('tsconfig.json', CLIENT));
    const source = readFileSync(new URL('consumer.ts', CLIENT), 'utf8');
    expect(source).not.toMatch(/\bas (?!const\b)|<any>|: any\b/);
    // An unused @ts-expect-error is itself an error: the misspellings must fail to compile.
    expect(source.match(/@ts-expect-error/g)?.length).toBeGreaterThanOrEqual(2);
    const result = await run(process.execPath, [tsc, '-p', project, '--noEmit'], { encoding: 'utf8' }).then(
      () => ({ code: 0, output: '' }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, output: error.stdout ?? '' }),
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  for (const [form, service] of [
    ['envelope', () => envelope],
    ['flat', () => flat],
  ] as const) {
    it(`reads a live subscription page by page from a service answering the ${form} form`, async () => {
      const h = service();
      const read = await readLive(h.url, h.demo.api_key, 'sub_live_streets', { limit: 4, maxPages: 3, fetch: judged });
      expect(read).toMatchObject({ orgId: h.demo.org_id, form, pages: 3, hasMore: true });
      // The same submissions, in the same order, as one re-read of twelve.
      const direct = await h.get('/v1/live/pull?subscription_id=sub_live_streets&from=beginning&limit=12', h.demo.api_key);
      const items = (form === 'flat' ? direct.body.data : direct.body.data.items) as { submission_id: string }[];
      expect(read.submissionIds).toEqual(items.map((item) => item.submission_id));
    });
  }
});
