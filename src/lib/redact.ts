/**
 * Keys: the contract's form (`<service>_live_sk_` and 32 URL-safe characters, api/contract/keys.ts),
 * found anywhere in a text, in any case, and also when cut short (a server that echoes the first
 * characters still leaks most of a key), but never past its 32 characters: a token glued after it
 * is left whole for the JWT pattern. The match starts only where a run of letters and digits
 * starts, so a long run without a key is scanned once, not once per character.
 */
const KEY_ANYWHERE = /(?<![a-z0-9])[a-z0-9]+_live_sk_[A-Za-z0-9_-]{8,32}/gi;
/** Any 32-character URL-safe run after `_sk_`, whatever comes before it (another service's or mode's prefix). */
const SECRET_AFTER_SK = /_sk_[A-Za-z0-9_-]{32}/gi;

/**
 * The secrets this page has held (keys and JWTs it sent or was given), with each key's body (the
 * part after `_sk_`): a server that echoes the body without its prefix is caught by the text, not
 * the shape. Kept for the page's life (an error text may outlive a Disconnect), never stored.
 */
let known: string[] = [];
const MAX_KNOWN = 64;

/** Remembers a secret the console holds, so any echo of it, or of its key body, is redacted. */
export function rememberSecret(secret: string | undefined | null): void {
  if (!secret || secret.length < 16) return;
  const body = secret.includes('_sk_') ? secret.slice(secret.indexOf('_sk_') + 4) : null;
  const parts = [secret, ...(body && body.length >= 16 ? [body] : [])].filter((part) => !known.includes(part));
  if (parts.length === 0) return;
  // Longest first: a whole key is replaced before its body would be.
  known = [...parts, ...known].slice(0, MAX_KNOWN).sort((a, b) => b.length - a.length);
}

function withoutKnown(text: string): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join('[redacted key]');
  return out;
}
/**
 * JWTs: three base64url parts whose first is a JSON object: it decodes to `{`, maybe spaces, then
 * `"` (so it starts with `ey` or `ew`), even glued to text before it. The contract accepts any three
 * base64url parts, but a dashboard JWT's header is JSON. A dotted run is found first (each read
 * once, from its start: no backtracking over a long run), then checked.
 */
const DOTTED_RUN = /(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)+/g;
// `{"` or `{ ` encode to ey and one of A-D, I-L; `{` then a tab, newline or return to ew and one of k-r, 0-3.
const HEADER_START = /e(?:y[A-DI-L]|w[0-3k-r])/g;

/** Whether base64url text (its first 12 characters) starts with the encoding of `{` and optional spaces before a `"`. */
function jsonObjectStart(chunk: string): boolean {
  const whole = chunk.slice(0, chunk.length - (chunk.length % 4));
  if (whole.length < 8) return false;
  try {
    return /^\{\s*("|$)/.test(atob(whole.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return false;
  }
}

function holdsHeader(part: string): boolean {
  for (const found of part.matchAll(HEADER_START)) if (jsonObjectStart(part.slice(found.index, found.index + 12))) return true;
  return false;
}

function holdsJwt(run: string): boolean {
  const parts = run.split('.');
  for (let i = 0; i + 2 < parts.length; i++) if (parts[i + 1]!.length >= 2 && holdsHeader(parts[i]!)) return true;
  return false;
}

/**
 * Replaces every secret the page holds (`rememberSecret`: whole, or a key's body alone), anything
 * shaped like an API key, any 32 URL-safe characters after `_sk_`, and any JWT, so a server's echo
 * cannot leak one. Every text that may come from a server goes through here before it is stored,
 * logged or shown.
 */
export function redactSecrets(text: string): string {
  return withoutKnown(text)
    .replace(KEY_ANYWHERE, '[redacted key]')
    .replace(SECRET_AFTER_SK, '_sk_[redacted key]')
    .replace(DOTTED_RUN, (run) => (holdsJwt(run) ? '[redacted token]' : run));
}

/** `dds_live_sk_…AbCd`: the prefix and last four characters, never more. */
export function maskKey(key: string): string {
  const prefixEnd = key.indexOf('_sk_');
  const prefix = prefixEnd >= 0 ? key.slice(0, prefixEnd + 4) : '';
  return `${prefix}…${key.slice(-4)}`;
}
