/**
 * The dashboard of a crawl (`tres crawl --ui`, `tres ui`): its HTTP server, the live and
 * read-only sources it shows, and relevance feedback that retrains the judge from labels.
 */
export { CrawlMonitor } from './crawl-monitor.js';
export { liveSource } from './dashboard-source.js';
export {
  DEFAULT_FEEDBACK_OPTIONS,
  type FeedbackOptions,
  feedbackModelDir,
  RelevanceFeedback,
  type RetrainReport,
  resumeModelDir,
} from './feedback.js';
export { readOnlySource } from './read-only-source.js';
export {
  type Dashboard,
  type DashboardOptions,
  DEFAULT_DASHBOARD_OPTIONS,
  startDashboard,
} from './server.js';
