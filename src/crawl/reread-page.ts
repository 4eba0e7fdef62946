/**
 * Reading a recorded page's outlinks and fingerprint again from its stored response, the way the
 * crawl read them when it fetched the page (processFetch): for `tres repair`, which rebuilds the
 * rows a damaged crawl.sqlite lost from pages.jsonl and pages.warc.gz.
 *
 * A rendered page is read from its rendered document (the WARC `conversion` record beside its
 * response). What cannot come back this way: links of a PDF (not re-read; recorded without
 * outlinks); anchor scores only when the crawl's judge is given.
 */
import { contextWindowOptions, parseHtml } from '../html/index.js';
import { looksBinary, parseContentType } from '../net/index.js';
import { type PageRereader, responseHtml } from '../store/index.js';
import { pageFingerprint } from '../text/index.js';
import { DEFAULT_EXCLUDED_EXTENSIONS } from '../url/index.js';
import { type CrawlerOptions, linkContextWindowOf, resolveCrawlerOptions } from './crawl-options.js';
import { parseXRobotsTag } from './indexing-directives.js';
import type { PageJudge } from './judge.js';
import { KeywordJudge } from './keyword-judge.js';
import { LinkProcessor } from './link-processor.js';

/**
 * A {@link PageRereader} for a crawl run with `options` (the stored config). When the crawl's
 * strategy reads anchor scores, `loadJudge` gives the crawl's judge to score them (default: the
 * keyword judge of `options.keywords`, as the crawler's).
 * @throws ConfigError if the options do not validate.
 */
export async function createPageRereader(
  options: CrawlerOptions,
  loadJudge?: () => Promise<PageJudge>,
): Promise<PageRereader> {
  const o = resolveCrawlerOptions(options);
  const strategy = o.strategy;
  const withContext = o.withLinkContext || strategy.needsLinkContext === true;
  const window = linkContextWindowOf(o, strategy);
  const judge =
    strategy.needsAnchorScores !== true
      ? undefined
      : ((await loadJudge?.()) ?? new KeywordJudge({ keywords: o.keywords ?? [] }));
  // As Crawler.urlFilterOptions: without PDF reading, .pdf links are out of scope.
  const urlFilter =
    o.pdf !== false || o.urlFilter.excludedExtensions !== undefined
      ? o.urlFilter
      : { ...o.urlFilter, excludedExtensions: [...DEFAULT_EXCLUDED_EXTENSIONS, 'pdf'] };
  const links = new LinkProcessor({ siteMode: o.siteMode, urlFilter, maxDepth: o.maxDepth });
  return {
    async reread(page, response, isKnown) {
      const type = parseContentType(response.headers.get('content-type'));
      if (type.mime === 'application/pdf' || looksBinary(response.body)) return { outlinks: [] };
      const parsed = parseHtml(responseHtml(response), page.finalUrl, {
        withContext,
        ...contextWindowOptions(window),
        maxTextChars: o.maxTextChars,
        maxLinks: o.maxLinksPerPage,
      });
      const fingerprint = pageFingerprint(parsed);
      const header = parseXRobotsTag(response.headers.get('x-robots-tag'), o.net.userAgentToken ?? 'tres');
      const isNofollow = parsed.metaRobots.isNofollow || header.isNofollow;
      if (isNofollow && !o.shouldFollowNofollow) return { outlinks: [], fingerprint };
      const raw = parsed.metaRefreshUrl
        ? [...parsed.links, { url: parsed.metaRefreshUrl, anchorText: '', isNofollow: false }]
        : parsed.links;
      const outlinks = links.pageLinks(raw, page.depth + 1, {
        shouldFollowNofollow: o.shouldFollowNofollow,
        isKnown,
      });
      if (judge && outlinks.length > 0) {
        const scores = await judge.scoreAnchors(outlinks);
        outlinks.forEach((link, i) => {
          link.anchorProbability = scores[i] ?? 0;
        });
      }
      return { outlinks, fingerprint };
    },
  };
}
