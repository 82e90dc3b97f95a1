import type { Connection, ConnectionSubscription, Names } from '../../data';
import type { ExportNames } from './export-record';
import type { WriteSummary } from './writer';

export type ExportFormat = 'jsonl' | 'csv' | 'coco';
/** Every adopted item of the subscription, the items view's current filter, or everything. */
export type ExportSelection = 'adopted' | 'filter' | 'all';

/**
 * What a file holds (docs/export.md): enough to know later where it came from. Saved beside every
 * export as `<file>.manifest.json`, with what was written and left out; JSON Lines and COCO also
 * carry it inside (the first line; `info.manifest`).
 */
export interface ExportManifest {
  format: ExportFormat;
  subscription: { id: string; kind: ConnectionSubscription['kind']; label: string | null };
  /** The connection's name and base URL (never its key); on a team hub, the member signed in (their email). */
  connection: { name: string; base_url: string; org_id: string | null; member: string | null };
  selection: ExportSelection;
  /** The items view's filters when the export started, as given. */
  filters: Record<string, unknown>;
  /** Items selected (COCO may leave some out: counted at the end of its file). */
  count: number;
  /** Items are written in delivery order, whatever the view's sort. */
  order: 'delivery';
  /** The organization's dispute reason codes when the file was written: each `reason_code` is read against them. */
  reason_codes: string[];
  /**
   * The names the service published for the selection's tasks and verticals when the file was
   * written (an ID it did not name is absent): each row's `task_name` and `vertical_name` are read here.
   */
  names: ExportNames;
  created_at: string;
}

/** The names of the tasks and verticals these items name, and only those (not every task the service has). */
function namesOf(items: readonly { taskId: string | null; verticalId: string | null }[], names: Names | undefined): ExportNames {
  // No prototype: a vendor's ID ("constructor", "__proto__") is a key like any other, never Object's own member.
  const tasks = Object.create(null) as Record<string, string>;
  const verticals = Object.create(null) as Record<string, string>;
  for (const { taskId, verticalId } of items) {
    const task = taskId === null ? undefined : names?.tasks.get(taskId)?.name;
    if (task !== undefined) tasks[taskId!] = task;
    const vertical = verticalId === null ? undefined : names?.verticals.get(verticalId);
    if (vertical !== undefined) verticals[verticalId!] = vertical;
  }
  return { tasks, verticals };
}

export function buildManifest(input: {
  format: ExportFormat;
  connection: Connection;
  subscription: ConnectionSubscription;
  selection: ExportSelection;
  filters: Record<string, unknown>;
  /** The selection's items (their task and vertical IDs are named in the manifest); their number is `count`. */
  items: readonly { taskId: string | null; verticalId: string | null }[];
  /** What the service published (the console's names query); none: no names. */
  names?: Names;
  reasonCodes?: readonly string[];
  now?: Date;
}): ExportManifest {
  return {
    format: input.format,
    subscription: { id: input.subscription.id, kind: input.subscription.kind, label: input.subscription.label ?? null },
    connection: {
      name: input.connection.name,
      base_url: input.connection.baseUrl,
      org_id: input.connection.verified?.org_id ?? null,
      member: input.connection.hub?.member.email ?? null,
    },
    selection: input.selection,
    filters: input.filters,
    count: input.items.length,
    order: 'delivery',
    reason_codes: [...(input.reasonCodes ?? [])],
    names: namesOf(input.items, input.names),
    created_at: (input.now ?? new Date()).toISOString(),
  };
}

const EXTENSIONS: Record<ExportFormat, string> = { jsonl: 'jsonl', csv: 'csv', coco: 'coco.json' };
export const MIME_TYPES: Record<ExportFormat, string> = { jsonl: 'application/x-ndjson', csv: 'text/csv', coco: 'application/json' };

/** "sub_live_1-adopted-2026-11-23.jsonl": the subscription, what, the day (UTC); only safe characters. */
export function exportFileName(subscriptionId: string, selection: ExportSelection, format: ExportFormat, now = new Date()): string {
  const safe =
    subscriptionId
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 80) || 'subscription';
  return `${safe}-${selection}-${now.toISOString().slice(0, 10)}.${EXTENSIONS[format]}`;
}

/** The manifest saved beside a finished export: the file it describes and what was written and left out. */
export function completedManifest(manifest: ExportManifest, fileName: string, summary: WriteSummary) {
  return {
    ...manifest,
    file: fileName,
    written: summary.written,
    left_out: {
      items: summary.leftOut,
      ...(summary.badGeometry
        ? { bad_geometry: { shapes: summary.badGeometry.shapes, images: summary.badGeometry.images, named: summary.badGeometry.named } }
        : {}),
    },
  };
}

/** "sub-adopted-2026-11-23.csv.manifest.json": beside its file, never the same name as another format's. */
export const manifestFileName = (fileName: string) => `${fileName}.manifest.json`;
