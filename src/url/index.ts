/**
 * URLs: normalisation, host and registrable domain (the "web site" of the TRES papers) and
 * the filter that decides which URLs may be crawled at all.
 */
export { DEFAULT_NORMALIZE_OPTIONS, type NormalizeOptions, normalizeUrl } from './normalize-url.js';
export { hostSite, registrableDomain, type SiteMode, siteOf } from './registrable-domain.js';
export {
  createUrlFilter,
  createUrlFilterReason,
  DEFAULT_EXCLUDED_EXTENSIONS,
  DEFAULT_URL_FILTER_OPTIONS,
  type UrlFilter,
  type UrlFilterOptions,
} from './url-filter.js';
export { hostOf } from './url-parts.js';
