export {
  type ArrivedFetch,
  type CrawlerOptions,
  DEFAULT_CRAWLER_OPTIONS,
  type FetchRunner,
  type FetchRunnerContext,
  type ResolvedCrawlerOptions,
} from './crawl-options.js';
export { Crawler, END_PROGRESS_META } from './crawler.js';
export { type DomainLimit, domainLimitAt, formatDomainLimit, parseDomainLimit } from './domain-limit.js';
export type * from './events.js';
export { FrontierSpill, type FrontierSpillOptions, type HeldPages } from './frontier-spill.js';
export type { AnchorToJudge, PageJudge, PageToJudge } from './judge.js';
export { KeywordJudge, type KeywordJudgeOptions } from './keyword-judge.js';
export { LinkProcessor } from './link-processor.js';
export { type ProcessedFetch, processFetch, toWarcPayload } from './process-fetch.js';
export {
  type AskFunction,
  DEFAULT_QUESTION_OPTIONS,
  type QuestionOptions,
} from './question-desk.js';
export {
  cosine,
  disagreement,
  QuestionSelector,
  type QuestionSelectorOptions,
  type TermVector,
  termVector,
  uncertainty,
} from './question-selector.js';
export { createPageRereader } from './reread-page.js';
export {
  DEFAULT_SITEMAP_OPTIONS,
  readSitemaps,
  type SitemapHooks,
  type SitemapOptions,
  type SitemapStats,
} from './sitemap-source.js';
