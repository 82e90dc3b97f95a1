import { sql, type Kysely, type Selectable } from 'kysely';
import type { Engine, HubTables, VendorKeysTable } from '../db/schema';
import { shaped } from '../db/shaped';
import { newId } from '../secrets';
import { HubSecretError, wrongSecret, type VendorCipher } from '../vendor-cipher';
import { invalidateVendorKeyCache, openVendorSecret } from './vendor-key-cache';

export type VendorKeyRow = Selectable<VendorKeysTable>;

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

/** Another key already covering one of these subscriptions (or `*`): the one a request would be ambiguous between. */
export interface CoverageOverlap {
  overlap: { name: string; subscription: string };
}

/**
 * Each subscription is sent with exactly one key: a key naming it, else the one key covering
 * `*`. So two keys may not name the same subscription, nor both cover `*`; a key naming a
 * subscription beside a `*` key is the intended use (an exception to the default key).
 */
function coverageOverlap(rows: VendorKeyRow[], subscriptions: readonly string[]): CoverageOverlap | null {
  for (const row of rows) {
    const taken = new Set(JSON.parse(row.subscriptions) as string[]);
    const shared = subscriptions.find((s) => taken.has(s));
    if (shared !== undefined) return { overlap: { name: row.name, subscription: shared } };
  }
  return null;
}

export const overlapMessage = ({ overlap }: CoverageOverlap) =>
  overlap.subscription === '*'
    ? `the vendor key ${overlap.name} already covers every subscription (*): only one key may; list this key's subscriptions instead`
    : `subscription ${overlap.subscription} is already covered by the vendor key ${overlap.name}: a subscription is sent with one key, so list it on one of them only`;

/**
 * Vendor-key changes that check coverage take this lock, so two admins adding keys at once cannot
 * both pass the check. SQLite: the write transaction itself. PostgreSQL: an advisory lock.
 */
export async function lockVendorKeys(db: Kysely<HubTables>, engine: Engine): Promise<void> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${VENDOR_KEYS_LOCK})`.execute(db);
}
/** "ddhkey" as a number (another than the ledger's). */
const VENDOR_KEYS_LOCK = 0x6464686b6579;

export const findVendorKeyByName = (db: Kysely<HubTables>, name: string) =>
  db.selectFrom('vendor_keys').selectAll().where('name', '=', name).executeTakeFirst();

export async function addVendorKey(
  db: Kysely<HubTables>,
  cipher: VendorCipher,
  input: { name: string; key: string; jwt?: string; subscriptions: string[] },
  now = Date.now(),
): Promise<VendorKeyRow | { exists: true } | CoverageOverlap> {
  if (await findVendorKeyByName(db, input.name)) return { exists: true };
  const overlap = coverageOverlap(await listVendorKeys(db), input.subscriptions);
  if (overlap) return overlap;
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
 * Every stored key, as vendorKeyFor picks among them. Oldest first: a store that held two
 * overlapping keys before they were refused still picks one, always the same.
 */
export const vendorKeysQuery = (db: Kysely<HubTables>) => db.selectFrom('vendor_keys').selectAll().orderBy('created_at').orderBy('name');

/** vendorKeysQuery compiled once (db/shaped.ts): every /v1 request reads the keys. */
export const vendorKeysStatement = shaped([], (db) => vendorKeysQuery(db));

const readVendorKeys = async (db: Kysely<HubTables>) => (await db.executeQuery(vendorKeysStatement(db, {}))).rows as VendorKeyRow[];

/**
 * The key for a subscription: one naming it wins over one covering every subscription. With no
 * subscription (catalog, deliveries, usage) only a key covering every one is used. `stored`: the
 * rows read already (a request starts that read beside its other lookups); read now when absent.
 */
export async function vendorKeyFor(
  db: Kysely<HubTables>,
  cipher: VendorCipher,
  subscriptionId: string | null,
  stored: Promise<VendorKeyRow[]> = readVendorKeys(db),
): Promise<VendorCredential | null> {
  const rows = await stored;
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

/**
 * Every stored vendor key and JWT opened under `from` and sealed again under `to`, in the caller's
 * transaction. Nothing is written unless every one opens: a row that does not is named, and the
 * store stays as it was.
 */
export async function resealVendorKeys(db: Kysely<HubTables>, from: VendorCipher, to: VendorCipher): Promise<number> {
  const rows = await listVendorKeys(db);
  const opened = rows.map((row) => {
    try {
      return {
        row,
        key: from.open(row.key_sealed, `${row.id}.key`),
        jwt: row.jwt_sealed === null ? null : from.open(row.jwt_sealed, `${row.id}.jwt`),
      };
    } catch (error) {
      throw new HubSecretError(`the vendor key ${row.name} does not open under the current secret (${(error as Error).message}): nothing was changed`);
    }
  });
  for (const { row, key, jwt } of opened) {
    await db
      .updateTable('vendor_keys')
      .set({ key_sealed: to.seal(key, `${row.id}.key`), jwt_sealed: jwt === null ? null : to.seal(jwt, `${row.id}.jwt`) })
      .where('id', '=', row.id)
      .execute();
  }
  return opened.length;
}
