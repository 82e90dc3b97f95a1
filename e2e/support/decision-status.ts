import type { Page } from '@playwright/test';

/**
 * From the next page load on, records every text the header's decision status takes, each one
 * before it is painted (a MutationObserver: a status shown for one frame counts).
 */
export async function recordDecisionStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { decisionStatuses: string[] }).decisionStatuses = seen;
    new MutationObserver(() => {
      const label = document.querySelector('[role="status"][aria-label^="Decisions:"]')?.getAttribute('aria-label');
      if (label && label !== seen.at(-1)) seen.push(label);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  });
  return () => page.evaluate(() => (window as unknown as { decisionStatuses: string[] }).decisionStatuses);
}
