import { z } from '../../api/contract/zod';
import { lastResult } from '../../lib/memo';

/** Review settings kept on this device (no secrets). */
const SETTINGS_KEY = 'dds.settings';
export const GRACE_MIN_S = 0;
export const GRACE_MAX_S = 30;
const GRACE_DEFAULT_S = 3;

const settingsSchema = z.object({
  graceSeconds: z.number().int().min(GRACE_MIN_S).max(GRACE_MAX_S).catch(GRACE_DEFAULT_S),
});
export type ReviewSettings = z.infer<typeof settingsSchema>;

/** The stored text parsed, for the last text read: each decision asks for the undo window, parsed once per change. */
const parse = lastResult((raw: string | null): ReviewSettings => settingsSchema.parse(JSON.parse(raw ?? '{}')));

export function loadSettings(): ReviewSettings {
  try {
    return parse(window.localStorage.getItem(SETTINGS_KEY));
  } catch {
    return { graceSeconds: GRACE_DEFAULT_S };
  }
}

export function saveSettings(settings: ReviewSettings): void {
  try {
    window.localStorage.setItem(SETTINGS_KEY, JSON.stringify(settingsSchema.parse(settings)));
  } catch {
    /* storage unavailable: the setting lasts for this page */
  }
}
