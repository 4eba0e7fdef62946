/** sandbox/replay/: what the rest of the sandbox room imports from this folder. */
export { contentTypeOf } from './content-type.js';
export {
  REPLAY_SERVER_DEFAULTS,
  type ReplayServer,
  type ReplayServerOptions,
  type ReplayServerStats,
  startReplayServer,
} from './replay-server.js';
export {
  escapeHtml,
  htmlDocument,
  onGone,
  queryParam,
  resetSocket,
  sendBody,
  sendHtml,
  sendRedirect,
  sendStatus,
} from './responses.js';
export { sandboxResolveRules } from './sandbox-rules.js';
export { type Route, SiteRouter } from './site-router.js';
export type { FolderSite, HandlerSite, SiteHandler, SiteSource } from './site-source.js';
