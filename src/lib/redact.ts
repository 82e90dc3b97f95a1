import { API_KEY_PATTERN } from './../api/contract/keys';

const KEY_ANYWHERE = new RegExp(API_KEY_PATTERN.source.slice(1, -1), 'g');
const JWT_ANYWHERE = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** Replaces anything shaped like an API key or a JWT, so a server's echo cannot leak one. */
export function redactSecrets(text: string): string {
  return text.replace(KEY_ANYWHERE, '[redacted key]').replace(JWT_ANYWHERE, '[redacted token]');
}

/** `dds_live_sk_…AbCd`: the prefix and last four characters, never more. */
export function maskKey(key: string): string {
  const prefixEnd = key.indexOf('_sk_');
  const prefix = prefixEnd >= 0 ? key.slice(0, prefixEnd + 4) : '';
  return `${prefix}…${key.slice(-4)}`;
}
