import { afterAll, expect } from 'vitest';
import { judgeRecord } from './openapi-judge';

// The outside judge's verdict on this file's traffic (openapi-judge.ts): registered before the
// file's own hooks, so it runs after them, when every exchange of the file has been judged.
afterAll(() => {
  expect(judgeRecord().violations, 'exchanges that break docs/openapi.json').toEqual([]);
});
