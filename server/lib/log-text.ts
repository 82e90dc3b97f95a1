/**
 * A log line with every control character escaped: a decoded CR or LF in a request path (or any
 * text a client chose) cannot end the line early and forge another one, and an ESC cannot drive
 * the operator's terminal. Escapes are visible (`\r`, `\n`, `\u001b`), so the line still says
 * what was asked. C1 controls and the Unicode line and paragraph separators count too.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Wraps a line sink so that nothing written through it can carry a raw control character. */
export const safeLog =
  (log: (line: string) => void) =>
  (line: string): void =>
    log(escapeControls(line));
