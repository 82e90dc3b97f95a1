import { describe, expect, it } from 'vitest';
import { isSafeRedirect } from './safe-redirect';

describe('the return path after connecting', () => {
  it.each(['/usage', '/usage?limit=50', '/review/sub_1?cursor=abc#x', '/', '/items?q=a+b%C3%A9'])('accepts the console path %j', (target) => {
    expect(isSafeRedirect(target)).toBe(true);
  });

  it.each([
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'usage',
    '',
    '/a\nb',
    '/a\\b',
    '/review\u007f',
    '/a\u0085b',
    '/a b',
    '/é',
  ])('refuses %j, which could leave the console', (target) => {
    expect(isSafeRedirect(target)).toBe(false);
  });
});
