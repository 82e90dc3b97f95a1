/**
 * How the reviewer laid out the workspace, kept on this device (no secrets): whether the list is
 * collapsed. Focus mode is not kept: a reload shows the whole workspace again.
 */
const LAYOUT_KEY = 'dds.review.layout';

export interface ReviewLayout {
  listCollapsed: boolean;
}

export function loadLayout(): ReviewLayout {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(LAYOUT_KEY) ?? '{}');
    const listCollapsed = typeof stored === 'object' && stored !== null && (stored as Record<string, unknown>).listCollapsed === true;
    return { listCollapsed };
  } catch {
    return { listCollapsed: false };
  }
}

export function saveLayout(layout: ReviewLayout): void {
  try {
    window.localStorage.setItem(LAYOUT_KEY, JSON.stringify({ listCollapsed: layout.listCollapsed }));
  } catch {
    /* storage unavailable: the layout lasts for this page */
  }
}
