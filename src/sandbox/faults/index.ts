/** sandbox/faults/: what the rest of the sandbox room imports from this folder. */
export { CHARSET_PAGES, type CharsetPage, decodeWindows1252, encodeWindows1252 } from './charset-pages.js';
export {
  BROKEN_HTML_PAGES,
  type BrokenHtmlPage,
  FAULT_ROBOTS_TXT,
  ROBOTS_VIOLATION_MARKER,
  TINY_PDF,
  TINY_PNG,
} from './fault-content.js';
export { FAULT_SITES_DEFAULTS, type FaultSitesOptions } from './fault-page.js';
export { FAULT_INDEX_URL, faultSites } from './fault-sites.js';
export { gzipBomb } from './gzip-bomb.js';
export { type LinkFarm, type LinkFarmOptions, startLinkFarm } from './link-farm.js';
export { scriptSiteHandler } from './script-site.js';
