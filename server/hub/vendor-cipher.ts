import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../lib/service-error';

/*
 * The vendor's API key and JWT are held encrypted: AES-256-GCM under a subkey derived (HKDF-SHA256)
 * from the hub secret, which lives outside the database (env HUB_SECRET, or DATA_DIR/hub-secret,
 * 0600). A stolen database, or a PostgreSQL backup, holds no usable vendor key without it.
 * The envelope names the format version and the subkey's id, so a wrong secret is reported as
 * such instead of as a decryption failure deep in a request.
 */

const HUB_SECRET_FILE = 'hub-secret';
const VERSION = 'v1';
const MIN_SECRET = 32;

export interface VendorCipher {
  /** Identifies the subkey (not secret: derived separately from it). */
  keyId: string;
  seal: (plain: string, context: string) => string;
  open: (envelope: string, context: string) => string;
}

/** HUB_SECRET when set, else DATA_DIR/hub-secret (32 random bytes, created 0600 the first time). */
export function loadHubSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env.HUB_SECRET;
  if (fromEnv !== undefined) {
    if (fromEnv.length < MIN_SECRET) throw new UsageError(`HUB_SECRET must be at least ${MIN_SECRET} characters (random; e.g. openssl rand -base64 32)`);
    return Buffer.from(fromEnv, 'utf8');
  }
  const file = join(dataDir, HUB_SECRET_FILE);
  if (!existsSync(file)) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
      closeSync(fd);
    } catch (error) {
      // Another process (the CLI beside the hub) made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < MIN_SECRET) throw new UsageError(`${file} holds no usable hub secret (at least ${MIN_SECRET} characters)`);
  return Buffer.from(text, 'utf8');
}

/** Where the hub secret is read from when HUB_SECRET is not set. */
export const hubSecretFile = (dataDir: string) => join(dataDir, HUB_SECRET_FILE);

/** A new secret as the hub would take it (the same bound as HUB_SECRET). */
export function checkNewSecret(text: string, from: string): Buffer {
  const trimmed = text.trim();
  if (trimmed.length < MIN_SECRET) throw new UsageError(`${from} must hold at least ${MIN_SECRET} characters (random; e.g. openssl rand -base64 32)`);
  return Buffer.from(trimmed, 'utf8');
}

export function vendorCipher(secret: Buffer): VendorCipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'ddh-hub', 'vendor-keys aes-256-gcm v1', 32));
  const keyId = Buffer.from(hkdfSync('sha256', secret, 'ddh-hub', 'vendor-keys key id v1', 6)).toString('hex');
  return {
    keyId,
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      // The row and field are bound in: a ciphertext copied to another row or column does not open.
      cipher.setAAD(Buffer.from(`${VERSION}.${keyId}.${context}`));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, keyId, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(envelope, context) {
      const [version, kid, iv, body, tag] = envelope.split('.');
      if (version !== VERSION || !iv || body === undefined || !tag) throw new HubSecretError('a stored vendor key is not in a format this hub reads');
      if (kid !== keyId) throw new HubSecretError(wrongSecret(kid ?? '?', keyId));
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${VERSION}.${kid}.${context}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new HubSecretError('a stored vendor key does not decrypt: it was altered, or moved to another row');
      }
    },
  };
}

export const wrongSecret = (stored: string, current: string) =>
  `the vendor keys were stored under another hub secret (key id ${stored}; this secret's is ${current}): set HUB_SECRET, or DATA_DIR/hub-secret, to the one they were stored under`;

export class HubSecretError extends UsageError {
  override name = 'HubSecretError';
}
