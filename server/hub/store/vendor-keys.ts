import type { Kysely, Selectable } from 'kysely';
import type { HubTables, VendorKeysTable } from '../db/schema';
import { newId } from '../secrets';
import { HubSecretError, wrongSecret, type VendorCipher } from '../vendor-cipher';
import { invalidateVendorKeyCache, openVendorSecret } from './vendor-key-cache';

type VendorKeyRow = Selectable<VendorKeysTable>;

/** A vendor key as listed: what it covers and when it changed, never the key or JWT (not even a part). */
export interface VendorKeyView {
  id: string;
  name: string;
  subscriptions: string[];
  has_jwt: boolean;
  created_at: string;
  rotated_at: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const vendorKeyView = (k: VendorKeyRow): VendorKeyView => ({
  id: k.id,
  name: k.name,
  subscriptions: JSON.parse(k.subscriptions) as string[],
  has_jwt: k.jwt_sealed !== null,
  created_at: iso(k.created_at)!,
  rotated_at: iso(k.rotated_at),
});

/** What a forwarded request is sent with. */
export interface VendorCredential {
  id: string;
  name: string;
  key: string;
  jwt: string | null;
}

export const listVendorKeys = (db: Kysely<HubTables>) => db.selectFrom('vendor_keys').selectAll().orderBy('name').execute();

export const findVendorKeyByName = (db: Kysely<HubTables>, name: string) =>
  db.selectFrom('vendor_keys').selectAll().where('name', '=', name).executeTakeFirst();

export async function addVendorKey(
  db: Kysely<HubTables>,
  cipher: VendorCipher,
  input: { name: string; key: string; jwt?: string; subscriptions: string[] },
  now = Date.now(),
): Promise<VendorKeyRow | { exists: true }> {
  if (await findVendorKeyByName(db, input.name)) return { exists: true };
  const id = newId('vk');
  const row: VendorKeyRow = {
    id,
    name: input.name,
    subscriptions: JSON.stringify(input.subscriptions),
    key_sealed: cipher.seal(input.key, `${id}.key`),
    jwt_sealed: input.jwt === undefined ? null : cipher.seal(input.jwt, `${id}.jwt`),
    created_at: now,
    rotated_at: null,
  };
  await db.insertInto('vendor_keys').values(row).execute();
  invalidateVendorKeyCache();
  return row;
}

/** A new key (and JWT: absent means none) under the same name and coverage. */
export async function rotateVendorKey(db: Kysely<HubTables>, cipher: VendorCipher, row: VendorKeyRow, input: { key: string; jwt?: string }, now = Date.now()) {
  const next = {
    key_sealed: cipher.seal(input.key, `${row.id}.key`),
    jwt_sealed: input.jwt === undefined ? null : cipher.seal(input.jwt, `${row.id}.jwt`),
    rotated_at: now,
  };
  await db.updateTable('vendor_keys').set(next).where('id', '=', row.id).execute();
  invalidateVendorKeyCache();
  return { ...row, ...next };
}

export async function removeVendorKey(db: Kysely<HubTables>, id: string) {
  const result = await db.deleteFrom('vendor_keys').where('id', '=', id).execute();
  invalidateVendorKeyCache();
  return result;
}

/**
 * The key for a subscription: one naming it wins over one covering every subscription. With no
 * subscription (catalog, deliveries, usage) only a key covering every one is used.
 */
export async function vendorKeyFor(db: Kysely<HubTables>, cipher: VendorCipher, subscriptionId: string | null): Promise<VendorCredential | null> {
  const rows = await listVendorKeys(db);
  const covers = (r: VendorKeyRow) => JSON.parse(r.subscriptions) as string[];
  const chosen = (subscriptionId !== null ? rows.find((r) => covers(r).includes(subscriptionId)) : undefined) ?? rows.find((r) => covers(r).includes('*'));
  if (!chosen) return null;
  return {
    id: chosen.id,
    name: chosen.name,
    // Opened once per sealed envelope (vendor-key-cache.ts): the row itself is read afresh every time.
    key: openVendorSecret(cipher, chosen.key_sealed, `${chosen.id}.key`),
    jwt: chosen.jwt_sealed === null ? null : openVendorSecret(cipher, chosen.jwt_sealed, `${chosen.id}.jwt`),
  };
}

/** At start-up: every stored key must be under this secret, or the hub refuses to start (clearly). */
export async function checkVendorKeys(db: Kysely<HubTables>, cipher: VendorCipher): Promise<void> {
  for (const row of await listVendorKeys(db)) {
    const kid = row.key_sealed.split('.')[1] ?? '?';
    if (kid !== cipher.keyId) throw new HubSecretError(wrongSecret(kid, cipher.keyId));
    cipher.open(row.key_sealed, `${row.id}.key`);
  }
}
