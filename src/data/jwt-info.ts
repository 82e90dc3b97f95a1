import { jwtDecode } from 'jwt-decode';

// Its own module: only the pages that show a JWT's expiry load the decoder, not the first page.
export interface JwtInfo {
  expiresAt: Date | null;
  expired: boolean;
  subject: string | null;
}

/** Decodes a JWT's claims for display (the signature is the server's business). */
export function jwtInfo(token: string, now = Date.now()): JwtInfo | { error: string } {
  try {
    const claims = jwtDecode<{ exp?: number; sub?: string }>(token);
    const expiresAt = typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
    return { expiresAt, expired: expiresAt !== null && expiresAt.getTime() <= now, subject: claims.sub ?? null };
  } catch {
    return { error: 'This JWT cannot be decoded' };
  }
}

/** A key to send, or a hub session (whose cookie the browser sends): requests may go. */
