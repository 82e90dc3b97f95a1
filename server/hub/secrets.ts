import { createHash, randomBytes } from 'node:crypto';

/** Session cookies and access tokens are stored as this digest only: the database holds nothing usable. */
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** 32 random bytes, URL-safe: a session token, or the body of an access token. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Short random ids for rows (`mem_…`, `pat_…`): not secret, only unique. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;

export const ACCESS_TOKEN_PREFIX = 'ddh_pat_';
export const ACCESS_TOKEN_PATTERN = /^ddh_pat_[A-Za-z0-9_-]{43}$/;
