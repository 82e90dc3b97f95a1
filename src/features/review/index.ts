/** Public entry of the review feature. */
export { ReviewIndex } from './components/review-index';
export { ReviewWorkspace } from './components/review-workspace';
export { UnknownSubscription } from './components/unknown-subscription';
export { ItemContent } from './components/item-detail';
export { forgetContent } from './content-cache';
export { displayState, entriesByItem, fromSimulated, itemSummary, STATE_LABELS } from './model';
export { pendingItemsQuery, rereadPageQuery } from './queries';
export { pageSizeError, reviewSearchSchema } from './search';
