import { Badge } from '../ui/panel';
import { jwtInfo } from '../../data';

/** The JWT's expiry, decoded for the user; an expired token is flagged before any use. */
export function JwtStatus({ token }: { token: string | undefined }) {
  if (!token) return <Badge>No dashboard JWT</Badge>;
  const info = jwtInfo(token);
  if ('error' in info) return <Badge tone="bad">{info.error}</Badge>;
  if (!info.expiresAt) return <Badge tone="warn">JWT without expiry</Badge>;
  const when = info.expiresAt.toLocaleString();
  return info.expired ? <Badge tone="bad">JWT expired {when}</Badge> : <Badge tone="good">JWT valid until {when}</Badge>;
}
