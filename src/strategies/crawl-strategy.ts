/**
 * A crawl's strategy given by name, made where names are resolved: the command line and the
 * library entry (src/index.ts). The crawl loop takes only a Strategy object, so it does not load
 * the registry of every strategy.
 */
import { createRng } from '../common/index.js';
import { KeywordSet } from '../text/index.js';
import { createStrategy } from './registry.js';
import type { Strategy } from './strategy.js';

/**
 * The strategy of a crawl that names none: relevant pages from many relevant sites (issue 25;
 * against best-first, at least its mean harvest rate and relevant sites on the DocWeb topics, but
 * for one tie: results/coverage-strategy/default.md).
 */
export const DEFAULT_STRATEGY = 'coverage';

/** What a strategy given by name is made from: the crawl's seed and its topic words. */
export interface CrawlStrategySource {
  /** The crawl's run seed (`CrawlerOptions.seed`). */
  seed: number | string;
  keywords?: readonly string[];
  keyphrases?: readonly string[];
}

/**
 * `spec` itself, or the strategy `spec` names (`tres`, `tres:gamma=0.5`) with the random stream
 * `strategy` forked off the crawl's seed and the crawl's keywords and keyphrases: the stream the
 * crawl loop gave it when it made strategies itself, so a seeded crawl fetches in the same order.
 * @throws ConfigError (field `strategy`) for an unknown strategy or setting.
 */
export function strategyForCrawl(spec: string | Strategy, crawl: CrawlStrategySource): Strategy {
  if (typeof spec !== 'string') return spec;
  return createStrategy(spec, {
    rng: createRng(crawl.seed).fork('strategy'),
    keywords: new KeywordSet(crawl.keywords ?? [], crawl.keyphrases ?? []),
  });
}
