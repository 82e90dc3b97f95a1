/**
 * Delivered payloads are untrusted. A string becomes an image only from https:, http:,
 * data:image/ or blob: URLs, and a link only from http(s). Relative paths resolve
 * against the connection's base URL (the local service serves its demo images so).
 */
const IMAGE_DATA = /^data:image\/(png|jpe?g|gif|webp|avif|bmp|svg\+xml)[;,]/i;

export function resolveUrl(value: string, baseUrl: string): URL | null {
  if (value.length > 100_000) return null;
  const trimmed = value.trim();
  if (!trimmed || /\s/.test(trimmed.slice(0, 2048).replace(/^data:[^,]*,/, ''))) {
    if (!trimmed.startsWith('data:')) return null;
  }
  try {
    const looksRelative = trimmed.startsWith('/') && !trimmed.startsWith('//');
    if (!looksRelative) return new URL(trimmed);
    // A relative path stays on the base URL's origin: the URL parser reads "/\host" as "//host".
    const url = new URL(trimmed, baseUrl);
    return url.origin === new URL(baseUrl).origin ? url : null;
  } catch {
    return null;
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
