import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { liveDisputeBodySchema, livePullQuerySchema } from '../../src/api/contract';
import { ServiceError } from '../lib/service-error';
import { validJson, validQuery } from './validate';

// The validators on their own, behind the same kind of onError the app has.
const app = new Hono();
app.get('/pull', validQuery(livePullQuerySchema), (c) => c.json(c.req.valid('query'), 200));
app.post('/dispute', validJson(liveDisputeBodySchema), (c) => c.json(c.req.valid('json'), 200));
app.onError((error, c) =>
  error instanceof ServiceError ? c.json({ errorCode: error.code, errorMessage: error.message }, error.status) : c.json({ unexpected: error.message }, 500),
);

const post = (body: string, contentType?: string) =>
  app.request('/dispute', { method: 'POST', body, headers: contentType ? { 'Content-Type': contentType } : {} });

describe('query validation', () => {
  it('hands the route the parsed query', async () => {
    const response = await app.request('/pull?subscription_id=s&limit=5&task_ids=1,2,1');
    expect(await response.json()).toEqual({ subscription_id: 's', limit: 5, task_ids: ['1', '2'] });
  });

  it('answers a bad parameter with 400 INVALID_PARAMETER naming it', async () => {
    const response = await app.request('/pull?subscription_id=s&limit=0');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errorCode: 'INVALID_PARAMETER', errorMessage: expect.stringContaining('limit') });
  });

  it('refuses a repeated parameter with 400 INVALID_PARAMETER naming it, even when both values agree', async () => {
    for (const query of [
      'subscription_id=s&limit=5&limit=999',
      'subscription_id=s&limit=5&limit=5',
      'subscription_id=s&subscription_id=t',
      'subscription_id=s&x=1&x=2',
    ]) {
      const response = await app.request(`/pull?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toMatchObject({
        errorCode: 'INVALID_PARAMETER',
        errorMessage: expect.stringMatching(/^(limit|subscription_id|x) must be given once/),
      });
    }
  });
});

describe('body validation', () => {
  it('hands the route the parsed body', async () => {
    const response = await post('{"subscription_id":"s","reason":"blurry"}', 'application/json');
    expect(await response.json()).toEqual({ subscription_id: 's', reason: 'blurry' });
  });

  it('answers malformed JSON, a non-object and a schema failure with 400 INVALID_BODY', async () => {
    for (const body of ['{', '', '[1,2]', 'null', '{"subscription_id":5}', `{"subscription_id":"s","reason":"${'x'.repeat(2001)}"}`]) {
      const response = await post(body, 'application/json');
      expect(response.status, body.slice(0, 30)).toBe(400);
      expect((await response.json()) as unknown, body.slice(0, 30)).toMatchObject({ errorCode: 'INVALID_BODY' });
    }
  });

  it('reads a JSON body sent without a JSON content type, as the service always has', async () => {
    expect((await post('{"subscription_id":"s"}', 'text/plain')).status).toBe(200);
    expect((await post('{"subscription_id":"s"}')).status).toBe(200);
    expect(await (await post('{', 'text/plain')).json()).toMatchObject({ errorCode: 'INVALID_BODY' });
  });
});
