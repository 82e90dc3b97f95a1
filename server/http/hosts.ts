import { createMiddleware } from 'hono/factory';
import { ServiceError } from '../lib/service-error';

/**
 * Which `Host` values the service answers (DNS rebinding: a page of another site that resolves
 * its name to this machine reaches the service with its own name in Host, so a name the service
 * was not told about is refused with 421).
 */
export interface HostPolicy {
  /** The port the service listens on, known once it does (it may be started on port 0). */
  port: number;
  allows: (host: string | undefined) => boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopbackAddress = (host: string) => host === 'localhost' || host === '::1' || /^127(\.[0-9]{1,3}){3}$/.test(host);
const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '';

/** `name[:port]` of a Host header, lower-cased; null when it is not of that form. */
function splitHost(host: string): { name: string; port: string | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/.exec(host.toLowerCase());
  return match ? { name: match[1]!, port: match[2] ?? null } : null;
}

/**
 * The bind address with its port; the loopback names (`localhost`, `127.0.0.1`, `[::1]`) on any
 * port when bound to loopback or to every interface (a dev proxy forwards the browser's
 * `localhost:5173`, and no other site can make a browser send a loopback name); and each
 * `--allowed-host` name, on any port unless it names one.
 */
export function hostPolicy(bindHost: string, allowedHosts: readonly string[]): HostPolicy {
  const bind = bindHost.toLowerCase();
  const bindName = bind.includes(':') ? `[${bind}]` : bind;
  const loopbackAllowed = isLoopbackAddress(bind) || isWildcard(bind);
  const named = allowedHosts.map((name) => splitHost(name)).filter((name) => name !== null);
  const policy: HostPolicy = {
    port: 0,
    allows: (host) => {
      const parsed = host === undefined ? null : splitHost(host);
      if (!parsed) return false;
      if (loopbackAllowed && LOOPBACK_NAMES.has(parsed.name)) return true;
      if (parsed.name === bindName && parsed.port === String(policy.port)) return true;
      return named.some((n) => n.name === parsed.name && (n.port === null || n.port === parsed.port));
    },
  };
  return policy;
}

/** Does a Host header name this machine's loopback (`localhost`, `127.0.0.1`, `[::1]`, any port)? */
export function isLoopbackHost(host: string | undefined): boolean {
  const parsed = host === undefined ? null : splitHost(host);
  return parsed !== null && LOOPBACK_NAMES.has(parsed.name);
}

/** Refuses every request whose Host the policy does not allow: 421 with the JSON error body. */
export const allowedHostsOnly = (policy: HostPolicy) =>
  createMiddleware(async (c, next) => {
    // An absolute-form request (`GET http://name/path`) names its host on the request line, which
    // then overrides Host (RFC 9112 3.2.2): both must be a name the service answers.
    if (!policy.allows(c.req.header('Host')) || !policy.allows(new URL(c.req.url).host)) {
      throw new ServiceError('MISDIRECTED_REQUEST', 'this service does not answer for that Host: start it with --allowed-host NAME to add one');
    }
    return next();
  });

/** Is a remote address this machine? (IPv4, IPv6, and IPv4 mapped into IPv6.) */
export const isLoopbackPeer = (address: string | undefined): boolean =>
  address !== undefined && (address === '::1' || /^(::ffff:)?127(\.[0-9]{1,3}){3}$/.test(address));
