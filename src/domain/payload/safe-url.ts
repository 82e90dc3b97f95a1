/**
 * Delivered payloads are untrusted. A string becomes an image only from https:, http:,
 * data:image/ or blob: URLs, and a link only from http(s). Relative paths resolve
 * against the connection's base URL (the local service serves its demo images so).
 */
const IMAGE_DATA = /^data:image\/(png|jpe?g|gif|webp|avif|bmp|svg\+xml)[;,]/i;

/** A scheme (`https:`, `data:`, `javascript:`…) makes a URL absolute; anything else is relative. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Parses an absolute URL, or resolves a relative one against the base URL. A relative input must
 * be a path ("/…") and must stay on the base URL's origin, whatever the parser makes of it:
 * browsers read "\\" as "/" in http(s) URLs, so "/\\host" and "\\\\host" are protocol-relative in
 * disguise, and tabs or newlines are dropped ("/\t/host"). Those forms are refused outright, and
 * any other is resolved first and then checked against the base's origin.
 */
export function resolveUrl(value: string, baseUrl: string): URL | null {
  if (value.length > 100_000) return null;
  const trimmed = value.trim();
  if (!trimmed || /\s/.test(trimmed.slice(0, 2048).replace(/^data:[^,]*,/, ''))) {
    if (!trimmed.startsWith('data:')) return null;
  }
  try {
    if (SCHEME.test(trimmed)) return new URL(trimmed);
    if (!trimmed.startsWith('/') || /^[/\\]{2}/.test(trimmed)) return null;
    const base = new URL(baseUrl);
    const url = new URL(trimmed, base);
    return url.origin === base.origin ? url : null;
  } catch {
    return null;
  }
}

/** Whether a (resolved) URL loads from somewhere other than the base URL's origin: data: and blob: do not. */
export function isOtherOrigin(url: string, baseUrl: string): boolean {
  // Told by the scheme, not by parsing: a data: image may be megabytes long.
  if (/^(data|blob):/i.test(url)) return false;
  try {
    return new URL(url).origin !== new URL(baseUrl).origin;
  } catch {
    return true;
  }
}

export function safeImageUrl(value: unknown, baseUrl: string): string | null {
  if (typeof value !== 'string') return null;
  if (IMAGE_DATA.test(value)) return value.length <= 5_000_000 ? value : null;
  const url = resolveUrl(value, baseUrl);
  if (!url) return null;
  return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'blob:' ? url.href : null;
}

export function safeLinkUrl(value: unknown, baseUrl: string): string | null {
  if (typeof value !== 'string' || !/^(https?:\/\/|\/[^/])/i.test(value.trim())) return null;
  const url = resolveUrl(value, baseUrl);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}

const IMAGE_KEY = /(image|photo|picture|thumbnail|img)(_?url)?$|^url$/i;
const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp|avif|svg)(\?|#|$)/i;

/** Whether a string field is meant as an image: by its key or by its file extension. */
export function looksLikeImage(key: string, value: string): boolean {
  return IMAGE_KEY.test(key) || IMAGE_EXTENSION.test(value) || value.startsWith('data:image/');
}
