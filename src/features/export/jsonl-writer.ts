import { decidedAtOf, decidedByOf, decisionOf, reasonCodeOf, reasonOf, taskNameOf, verticalNameOf, type RecordSource } from './export-record';
import type { ExportManifest } from './manifest';
import type { ExportWriter, WriteSummary } from './writer';

/**
 * JSON Lines: `{"manifest": …}` first, then one line per item with the delivered record exactly as
 * received under `record` and what this console knows of it beside (docs/export.md).
 */
async function* writeJsonl(manifest: ExportManifest, source: RecordSource): AsyncGenerator<string, WriteSummary, undefined> {
  yield `${JSON.stringify({ manifest })}\n`;
  let written = 0;
  for await (const { row, record } of source()) {
    const line = {
      subscription_id: row.item.subscriptionId,
      item_id: row.item.itemId,
      kind: row.item.kind,
      task_name: taskNameOf(row, manifest.names),
      vertical_name: verticalNameOf(row, manifest.names),
      state: row.state,
      decision: decisionOf(row),
      decided_at: decidedAtOf(row, record),
      decided_by: decidedByOf(row, manifest.connection.member),
      reason: reasonOf(row),
      reason_code: reasonCodeOf(row, manifest.reason_codes),
      record,
    };
    yield `${JSON.stringify(line)}\n`;
    written++;
  }
  return { written, leftOut: 0 };
}

export const jsonlWriter: ExportWriter = { passes: 1, write: writeJsonl };
