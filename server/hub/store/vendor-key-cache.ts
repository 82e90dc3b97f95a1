import type { VendorCipher } from '../vendor-cipher';

/*
 * Opened vendor keys, kept in memory by their sealed envelope, so a forwarded request does not
 * decrypt the key (and JWT) it was sent with every time. The stored row is still read on every
 * request: the cache is keyed by what it holds, so a key rotated, removed or sealed again under a
 * new secret (by this hub, the CLI or another hub on the same PostgreSQL) is simply a different
 * envelope, a miss, and the old one is never used again. `invalidateVendorKeyCache` drops every
 * opened key at once (a key removed or re-encrypted here: nothing of it stays in memory longer).
 */

/** Far more than a hub holds (a key and a JWT per vendor key): past it, start again. */
const MAX_ENTRIES = 256;

let opened: WeakMap<VendorCipher, Map<string, string>> | undefined;

/** The plain text of a sealed envelope, from memory when this cipher opened it before. */
export function openVendorSecret(cipher: VendorCipher, envelope: string, context: string): string {
  opened ??= new WeakMap();
  let entries = opened.get(cipher);
  if (!entries) opened.set(cipher, (entries = new Map()));
  // The context (row id and field) is part of what was sealed: the same envelope under another one does not open.
  const key = `${context}\n${envelope}`;
  const hit = entries.get(key);
  if (hit !== undefined) return hit;
  const plain = cipher.open(envelope, context);
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(key, plain);
  return plain;
}

/** Forgets every opened key (of every cipher): called when a key is added, rotated or removed. */
export function invalidateVendorKeyCache(): void {
  opened = undefined;
}
