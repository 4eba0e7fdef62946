/**
 * tres as a library. The shape Crawlee users know: construct a crawler with one typed options
 * object, subscribe to its events, `await crawler.run(seedUrls)`.
 *
 * ```ts
 * import { Crawler } from 'tres-crawler';
 * const crawler = new Crawler({ outDir: 'crawl1', strategy: 'best-first', keywords: ['cpu', 'gpu'], maxPages: 500 });
 * crawler.on('page', (p) => { if (p.reward) console.log('relevant:', p.url); });
 * const summary = await crawler.run(['https://example.org/']);
 * ```
 */
export * from './common/index.js';
export * from './crawl/index.js';
export type { WebClientOptions } from './net/index.js';
export {
  createSyntheticWeb,
  type SiteSource,
  sandboxResolveRules,
  serveSandbox,
  startReplayServer,
} from './sandbox/index.js';
export type { PageRecord, StoredPage } from './store/index.js';
export { CrawlStore } from './store/index.js';
export * from './strategies/index.js';
