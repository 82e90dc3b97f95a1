import { describe, expect, it } from 'vitest';
import { ApiError, ContractError, describeError, redactBody } from './errors';

const KEY = `dds_live_sk_${'Z'.repeat(32)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcmcifQ.c2lnbmF0dXJl';

describe('client errors', () => {
  it('hold no echo of a key or token: message, stack, raw body and recorded decision are redacted when made', () => {
    const error = new ApiError(409, 'FEEDBACK_CONFLICT', `item ${KEY} is already ${JWT}`, `{"errorMessage":"item ${KEY}"}`, `adopted ${KEY}`);
    for (const text of [error.message, error.stack ?? '', error.rawBody, error.recorded ?? '', String(error), describeError(error).message]) {
      expect(text).not.toContain(KEY.slice(12));
      expect(text).not.toContain('eyJzdWIiOiJvcmcifQ');
    }
    expect(error.message).toBe('item [redacted key] is already [redacted token]');
    const contract = new ContractError('/v1/usage', 'data[0]', `unexpected ${KEY}`, KEY);
    expect([contract.message, contract.rawBody].join(' ')).not.toContain(KEY.slice(12));
  });

  it('redacts a raw body before cutting it, so a key across the cut leaves nothing', () => {
    const body = `${'x'.repeat(19_990)} ${KEY}`;
    expect(redactBody(body)).not.toMatch(/_live_sk_/);
  });
});
