/** Public entry of the frontiers feature: frontiers, their tasks, and task previews. */
export { FrontierPage } from './components/frontier-page';
export { FrontiersPage } from './components/frontiers-page';
export { PreviewPage } from './components/preview-page';
export { previewBlocker } from './preview-blocker';
export { frontiersQuery, previewQuery, tasksQuery } from './queries';
export { frontiersSearchSchema, previewLimit, previewSearchSchema } from './search';
