import { sign } from 'hono/jwt';
import { JWT_AUDIENCE } from '../http/auth';

/** Issues a dashboard JWT (HS256) for an organization, valid for `ttlMs`. */
export async function issueDashboardToken(secret: string, orgId: string, ttlMs: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: orgId, aud: JWT_AUDIENCE, iat: now, exp: now + Math.floor(ttlMs / 1000) }, secret, 'HS256');
}
