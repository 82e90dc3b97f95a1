/** Public entry of the catalogue feature: frontiers, tasks, previews, verticals. */
export { FrontierPage } from './components/frontier-page';
export { FrontiersPage } from './components/frontiers-page';
export { PreviewPage } from './components/preview-page';
export { previewBlocker } from './preview-blocker';
export { VerticalsPage } from './components/verticals-page';
export { frontiersQuery, previewQuery, tasksQuery, verticalsQuery } from './queries';
export { frontiersSearchSchema, previewSearchSchema, type FrontiersSearch } from './search';
