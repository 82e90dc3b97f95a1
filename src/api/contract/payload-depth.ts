/**
 * How deep a delivered payload (a live submission's `data`, a simulated item's `payload`) may
 * nest: the service refuses deeper ones where they enter and never delivers one, and the console
 * renders to the same depth. Recursive code (JSON.stringify, a tree view) overflows the stack
 * on a payload a few thousand levels deep; 64 is far beyond any real record.
 */
export const MAX_PAYLOAD_DEPTH = 64;

/** What the service delivers in place of a stored payload deeper than the limit. */
export const WITHHELD_PAYLOAD = { dds_payload_withheld: `the stored payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels` } as const;

/**
 * The path to the first object or array nested deeper than `max` levels (the value itself is
 * level 1), or null when none is. Iterative, so any depth is measured without recursion.
 */
export function tooDeepAt(value: unknown, max = MAX_PAYLOAD_DEPTH): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: node, path } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (path.length + 1 > max) return path;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [name, child] of entries) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: [...path, name] });
    }
  }
  return null;
}

/**
 * Does JSON text nest deeper than `max` levels? Reads the text once, counting brackets outside
 * strings, without parsing it (the service keeps payloads as text).
 */
export function jsonTextTooDeep(text: string, max = MAX_PAYLOAD_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \ */) i++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 /* { */ || code === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (code === 125 /* } */ || code === 93 /* ] */) depth--;
  }
  return false;
}
