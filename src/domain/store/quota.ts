/**
 * Room in this browser's storage. A pull that could not be written would move the service's
 * position for nothing, so it is checked before an incremental pull.
 */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  readonly title = 'Not enough room in this browser’s storage';
}

export interface StorageUse {
  usage: number;
  quota: number;
  persisted: boolean | null;
}

export async function storageUse(): Promise<StorageUse | null> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.estimate) return null;
  const [estimate, persisted] = await Promise.all([storage.estimate(), storage.persisted?.().catch(() => null) ?? null]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

/** Asks the browser not to evict this origin's data under storage pressure (it may say no). */
export async function requestPersistence(): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}

/** Throws StorageFullError unless `bytes` more fit, with room to spare. */
export async function ensureRoom(bytes: number): Promise<void> {
  const use = await storageUse();
  if (!use || use.quota === 0) return;
  const free = use.quota - use.usage;
  if (free < bytes * 2) {
    throw new StorageFullError(
      `This browser's storage for the console is nearly full (${formatBytes(free)} free of ${formatBytes(use.quota)}). Nothing was pulled: delete local data you no longer need, then pull again.`,
    );
  }
}

/** Storage errors that mean "no room" or "no database", whatever the browser calls them. */
export function isStorageFailure(error: unknown): boolean {
  const name = (error as { name?: string; inner?: { name?: string } } | null)?.name ?? '';
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? '';
  return /QuotaExceeded|DatabaseClosed|InvalidState|OpenFailed|Abort|UnknownError|MissingAPI|VersionError/.test(`${name} ${inner}`);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
