/**
 * The crawl's fetches in this process (no fetch runner): the web client (politeness, robots.txt,
 * address guard), PDF extraction and rendering when asked for, then parse and judge
 * (processFetch). The URL filter and media types follow the `pdf` option.
 */
import type { Clock } from '../common/index.js';
import { DEFAULT_FETCHER_OPTIONS, type PageFetch, WebClient } from '../net/index.js';
import { PdfExtractor } from '../pdf/index.js';
import { Renderer } from '../render/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Action } from '../types/index.js';
import { DEFAULT_EXCLUDED_EXTENSIONS, type UrlFilterOptions } from '../url/index.js';
import { linkContextWindowOf, type ResolvedCrawlerOptions } from './crawl-options.js';
import type { PageJudge } from './judge.js';
import type { LinkProcessor } from './link-processor.js';
import { PDF_MEDIA_TYPE, type ProcessedFetch, processFetch } from './process-fetch.js';

/** What {@link LocalFetcher} needs of the crawl. */
export interface LocalFetcherOptions {
  options: ResolvedCrawlerOptions;
  strategy: Strategy;
  links: LinkProcessor;
  clock: Clock;
  /** True if the crawl holds `url` already (fetched, in flight, waiting): its links leave it out. */
  isKnown: (url: string) => boolean;
  onWarning: (message: string) => void;
}

/** Fetches, parses and judges pages in this process. */
export class LocalFetcher {
  readonly client: WebClient;
  private readonly pdf: PdfExtractor | undefined;
  private readonly renderer: Renderer | undefined;

  constructor(private readonly o: LocalFetcherOptions) {
    const options = o.options;
    this.client = new WebClient(
      { ...options.net, ...pdfContentTypes(options), isUrlAllowed: (url) => o.links.isUrlAllowed(url) },
      { clock: o.clock, onWarning: o.onWarning },
    );
    this.pdf = options.pdf === false ? undefined : new PdfExtractor(options.pdf);
    this.renderer =
      options.render === false
        ? undefined
        : new Renderer(this.client, options.render, {
            isUrlAllowed: (url) => o.links.isResourceAllowed(url),
          });
  }

  /**
   * Fetches `action`'s page and processes it with `judge`.
   * @throws what WebClient.fetchPage and processFetch throw.
   */
  async fetch(action: Action, judge: PageJudge, signal: AbortSignal): Promise<ProcessedFetch> {
    const { options, strategy } = this.o;
    const fetched = await this.client.fetchPage(action.url, { signal });
    return processFetch(fetched, action, {
      judge,
      threshold: options.relevanceThreshold,
      links: this.o.links,
      shouldFollowNofollow: options.shouldFollowNofollow,
      withLinkContext: options.withLinkContext || strategy.needsLinkContext === true,
      linkContextWindow: linkContextWindowOf(options, strategy),
      parseTimeBudgetMs: options.parseTimeBudgetMs,
      shouldObeyNoindex: options.shouldObeyNoindex,
      userAgentToken: options.net.userAgentToken ?? 'tres',
      maxTextChars: options.maxTextChars,
      maxLinksPerPage: options.maxLinksPerPage,
      shouldScoreAnchors: strategy.needsAnchorScores === true,
      isKnown: this.o.isKnown,
      ...(this.pdf ? { pdf: this.pdf } : {}),
      ...(this.renderer ? { render: (f) => this.renderPage(f, action.host, signal) } : {}),
    });
  }

  /** Closes the client, the PDF workers and the browser, in that order. */
  async close(): Promise<void> {
    await this.client.close();
    await this.pdf?.close();
    await this.renderer?.close();
  }

  /** Renders `fetched` when its host is to be rendered (undefined otherwise). */
  private renderPage(fetched: PageFetch, host: string, signal: AbortSignal): Promise<string> | undefined {
    const renderer = this.renderer;
    if (!renderer?.shouldRender(host)) return undefined;
    return renderer.render(fetched, signal);
  }
}

/** The URL filter's options; `pdf: false` keeps `.pdf` URLs out of the crawl. */
export function crawlUrlFilter(o: ResolvedCrawlerOptions): UrlFilterOptions {
  if (o.pdf !== false || o.urlFilter.excludedExtensions !== undefined) return o.urlFilter;
  return { ...o.urlFilter, excludedExtensions: [...DEFAULT_EXCLUDED_EXTENSIONS, 'pdf'] };
}

/** With PDFs read, `application/pdf` joins the default media types (unless the user set them). */
function pdfContentTypes(o: ResolvedCrawlerOptions): { allowedContentTypes?: readonly string[] } {
  if (o.pdf === false || o.net.allowedContentTypes !== undefined) return {};
  return { allowedContentTypes: [...DEFAULT_FETCHER_OPTIONS.allowedContentTypes, PDF_MEDIA_TYPE] };
}
