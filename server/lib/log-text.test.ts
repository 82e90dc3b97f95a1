import { describe, expect, it } from 'vitest';
import { escapeControls, safeLog } from './log-text';

describe('escapeControls', () => {
  it('escapes CR, LF and tab by name, other controls as \\u escapes', () => {
    expect(escapeControls('GET /v1/\r\nX-Injected: 1')).toBe('GET /v1/\\r\\nX-Injected: 1');
    expect(escapeControls('a\tb\u001b[31mc\u0000')).toBe('a\\tb\\u001b[31mc\\u0000');
  });

  it('escapes C1 controls and the Unicode line and paragraph separators', () => {
    expect(escapeControls('x\u0085y\u2028z\u2029')).toBe('x\\u0085y\\u2028z\\u2029');
  });

  it('leaves printable text, non-ASCII letters included, as it is', () => {
    expect(escapeControls('POST /v1/data/feedback 200 1.2ms — Zoë ＝')).toBe('POST /v1/data/feedback 200 1.2ms — Zoë ＝');
  });

  it('safeLog writes exactly one line per call', () => {
    const lines: string[] = [];
    safeLog((line) => lines.push(line))('GET /v1/%0d%0a → /v1/\r\nPOST /v1/data/simulated/items/x/adopt 200');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\r\n]/);
  });
});
