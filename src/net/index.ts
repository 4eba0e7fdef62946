/**
 * The net room: fetching pages politely and safely. The crawl loop uses {@link WebClient};
 * the parts are exported for tools and tests.
 */
export {
  type AddressClass,
  AddressGuard,
  type AddressGuardOptions,
  classifyAddress,
  DEFAULT_ADDRESS_GUARD_OPTIONS,
  guardedLookup,
} from './address-guard.js';
export {
  type CharsetSource,
  type ContentType,
  decodeText,
  detectCharset,
  looksBinary,
  parseContentType,
} from './charset.js';
export type { FetchResult } from './fetch-result.js';
export {
  DEFAULT_FETCHER_OPTIONS,
  Fetcher,
  type FetcherOptions,
  type FetchRequestOptions,
} from './fetcher.js';
export { parseRetryAfterMs } from './http-errors.js';
export { DEFAULT_POLITENESS_OPTIONS, Politeness, type PolitenessOptions } from './politeness.js';
export {
  parseResolveRule,
  parseResolveRules,
  type ResolvedTarget,
  type ResolveRule,
  ResolveRules,
} from './resolve-rules.js';
export {
  createRetryPolicy,
  DEFAULT_RETRY_POLICY_OPTIONS,
  type RetryPolicyOptions,
  retryDelayMs,
} from './retry-policy.js';
export {
  DEFAULT_ROBOTS_TXT_OPTIONS,
  type RobotsDecision,
  type RobotsFetch,
  RobotsTxtCache,
  type RobotsTxtOptions,
} from './robots-txt.js';
export { type ParsedSitemap, parseSitemap } from './sitemap.js';
export {
  DEFAULT_WEB_CLIENT_OPTIONS,
  type FetchPageOptions,
  type PageFetch,
  WebClient,
  type WebClientOptions,
} from './web-client.js';
