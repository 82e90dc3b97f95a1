/** Public entry of statistics: per subscription and for the organization, over the local store (lazy-loaded with their routes). */
export { OrganizationStatsPage } from './components/organization-stats-page';
export { SubscriptionStatsPage } from './components/subscription-stats-page';
