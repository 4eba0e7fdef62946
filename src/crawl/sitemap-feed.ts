/**
 * Reads the sitemaps of a crawl's seed origins in the background while the crawl runs (the
 * `sitemaps` option); the URLs found become seeds of the running crawl, and each sitemap response
 * goes into its WARC file like every response the crawl fetched.
 */
import type { WebClient } from '../net/index.js';
import type { CrawlStore } from '../store/index.js';
import type { FetchRunner } from './crawl-options.js';
import type { SitemapEvent } from './events.js';
import type { LinkProcessor } from './link-processor.js';
import { toWarcPayload } from './process-fetch.js';
import { readSitemaps, type SitemapHooks, type SitemapOptions } from './sitemap-source.js';

/** What {@link SitemapFeed} needs of the crawl. */
export interface SitemapFeedOptions {
  store: CrawlStore;
  links: LinkProcessor;
  /** This process's client; sitemaps are read through it unless the fetch runner reads them. */
  client: WebClient;
  runner: FetchRunner | undefined;
  /** True once the crawl is stopping: no more URLs are added. */
  isStopping: () => boolean;
  /** Adds URLs found as seeds of the running crawl. */
  addSeeds: (urls: readonly string[]) => void;
  onSitemap: (event: SitemapEvent) => void;
  /** A sitemap response could not be archived (the store failed): the crawl ends with it. */
  onFault: (error: unknown) => void;
  /** The reading ended (done, failed or aborted): the loop may decide the frontier is empty. */
  onEnd: () => void;
}

/** One crawl's background sitemap reading. */
export class SitemapFeed {
  /** The reading under way; undefined when done or never started. */
  private task: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly o: SitemapFeedOptions) {}

  /** True while sitemaps are being read (they may still add URLs to an empty frontier). */
  get isReading(): boolean {
    return this.task !== undefined;
  }

  /**
   * Reads the sitemaps of the stored seeds' origins; their URLs become seeds (stored, so a
   * resume keeps them). A resume reads them again: stored seeds are not added twice.
   */
  start(options: Required<SitemapOptions> | false): void {
    if (options === false) return;
    const { store, links, runner } = this.o;
    const origins = [...new Set(store.seeds().map((l) => new URL(l.url).origin))];
    const read = runner?.readSitemaps
      ? runner.readSitemaps.bind(runner)
      : (o: string[], opts: Required<SitemapOptions>, hooks: SitemapHooks) =>
          readSitemaps(this.o.client, o, opts, hooks);
    this.task = read(origins, options, {
      isUrlAllowed: (url) => links.isUrlAllowed(url),
      isSitemapAllowed: (url) => links.isResourceAllowed(url),
      onUrls: (urls) => {
        if (!this.o.isStopping()) this.o.addSeeds(urls);
      },
      onSitemap: (event) => this.o.onSitemap(event),
      // In the WARC file like every response the crawl fetched (gzip off the main thread).
      onResponse: async (fetched) => {
        try {
          store.archiveResponse(await store.prepareWarc(toWarcPayload(fetched.result), undefined));
        } catch (error) {
          this.o.onFault(error);
        }
      },
      shouldStop: () => this.o.isStopping(),
      signal: this.abort.signal,
    })
      .then(
        () => {},
        () => {}, // aborted as the crawl ends: the URLs added so far are stored
      )
      .finally(() => {
        this.task = undefined;
        this.o.onEnd();
      });
  }

  /** Aborts the reading and waits for it to end. */
  async close(): Promise<void> {
    this.abort.abort(new Error('crawl ended'));
    await this.task;
  }
}
