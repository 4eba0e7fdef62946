/**
 * Sitemaps as a source of URLs (`--sitemaps`, as ACHE, Crawlee and StormCrawler offer): for each
 * seed origin, the sitemaps its robots.txt lists (`Sitemap:` lines; else `/sitemap.xml`), index
 * files followed, gzip undone, bounded in documents, URLs and bytes. Every sitemap is fetched
 * through the crawl's own {@link WebClient}: the same per-host politeness, address guard,
 * robots.txt rules, timeouts and size caps as pages.
 */
import { ConfigError, errorCode } from '../common/index.js';
import { type PageFetch, parseSitemap, type WebClient } from '../net/index.js';
import { normalizeUrl } from '../url/index.js';

/** Options of the sitemap source (`CrawlerOptions.sitemaps`). */
export interface SitemapOptions {
  /** Sitemap documents fetched per crawl (index files included). @default 50 */
  maxSitemaps?: number;
  /** URLs taken from sitemaps in all, before filtering. @default 50_000 (the protocol's cap of one sitemap) */
  maxUrls?: number;
  /** Cap on one sitemap's bytes on the wire. @default 10 MiB */
  maxSitemapBytes?: number;
  /** Cap on one sitemap's gunzipped size, in bytes. @default 50 MiB (the protocol's cap) */
  maxDecompressedBytes?: number;
  /** Try `/sitemap.xml` of an origin whose robots.txt lists no sitemap. @default true */
  shouldGuessLocation?: boolean;
}

/** Defaults of {@link SitemapOptions}. */
export const DEFAULT_SITEMAP_OPTIONS: Readonly<Required<SitemapOptions>> = Object.freeze({
  maxSitemaps: 50,
  maxUrls: 50_000,
  maxSitemapBytes: 10 * 1024 * 1024,
  maxDecompressedBytes: 50 * 1024 * 1024,
  shouldGuessLocation: true,
});

/** Media types a sitemap is served as (a `.xml.gz` often as octet-stream). */
const SITEMAP_TYPES = [
  'application/xml',
  'text/xml',
  'text/plain',
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
];

/** One sitemap document read (or failed), for the crawler's `sitemap` event. */
export interface SitemapEvent {
  url: string;
  /** `urlset`, `index` or `text`; undefined when it failed. */
  kind?: 'urlset' | 'index' | 'text';
  /** URLs it listed that passed the crawl's filter (pages) or were queued (sitemaps). */
  urls: number;
  /** Error code when the sitemap could not be read (HTTP status as `TRES_HTTP_404`). */
  code?: string;
}

/** What the reader calls back with. */
export interface SitemapHooks {
  /** The crawl's URL filter, for listed pages. */
  isUrlAllowed: (url: string) => boolean;
  /** Filter of sitemap documents (the crawl's, file extensions aside: `.xml.gz`). */
  isSitemapAllowed: (url: string) => boolean;
  /** Page URLs found (filtered, on the sitemap's own host as the protocol requires). */
  onUrls: (urls: string[]) => void;
  onSitemap?: (event: SitemapEvent) => void;
  /** Each sitemap response fetched, whatever its status (the crawl archives it in its WARC file). */
  onResponse?: (fetched: PageFetch) => void | Promise<void>;
  /** Checked before each fetch: true ends the reading. */
  shouldStop: () => boolean;
  signal?: AbortSignal;
}

/**
 * Fills in and checks sitemap options.
 * @throws ConfigError naming the field (`sitemaps.maxUrls`).
 */
export function resolveSitemapOptions(options: SitemapOptions): Required<SitemapOptions> {
  const merged = { ...DEFAULT_SITEMAP_OPTIONS, ...options };
  for (const key of ['maxSitemaps', 'maxUrls', 'maxSitemapBytes', 'maxDecompressedBytes'] as const) {
    const v = merged[key];
    if (!Number.isInteger(v) || v < 1)
      throw new ConfigError(`sitemaps.${key} must be an integer >= 1, got ${JSON.stringify(v)}`, {
        context: { field: `sitemaps.${key}` },
      });
  }
  return merged;
}

/** Counts of one reading. */
export interface SitemapStats {
  sitemaps: number;
  urls: number;
  failures: number;
}

/**
 * Reads the sitemaps of `origins` breadth first and hands page URLs to `hooks.onUrls` as each
 * document is parsed. Never throws for a sitemap that fails (reported through `onSitemap`).
 * @throws the signal's reason when `hooks.signal` aborts.
 */
export async function readSitemaps(
  client: WebClient,
  origins: readonly string[],
  options: Required<SitemapOptions>,
  hooks: SitemapHooks,
): Promise<SitemapStats> {
  const stats: SitemapStats = { sitemaps: 0, urls: 0, failures: 0 };
  const queue: string[] = [];
  const seen = new Set<string>();
  const enqueue = (url: string) => {
    if (!seen.has(url) && /^https?:\/\//i.test(url) && hooks.isSitemapAllowed(url)) {
      seen.add(url);
      queue.push(url);
    }
  };
  for (const origin of origins) {
    if (hooks.shouldStop()) return stats;
    let listed: string[] = [];
    try {
      listed = await client.robots.sitemaps(origin);
    } catch {
      // The origin's robots.txt failed (DNS, guard): its pages fail the same way, and say why.
    }
    for (const url of listed) enqueue(url);
    if (listed.length === 0 && options.shouldGuessLocation) enqueue(`${origin}/sitemap.xml`);
  }
  while (queue.length > 0 && stats.sitemaps < options.maxSitemaps && stats.urls < options.maxUrls) {
    if (hooks.shouldStop()) break;
    const url = queue.shift() as string;
    stats.sitemaps++;
    const fail = (code: string) => {
      stats.failures++;
      hooks.onSitemap?.({ url, urls: 0, code });
    };
    let body: Buffer;
    let finalUrl: string;
    try {
      const fetched = await client.fetchPage(url, {
        isUrlAllowed: hooks.isSitemapAllowed,
        allowedContentTypes: SITEMAP_TYPES,
        maxBodyBytes: options.maxSitemapBytes,
        ...(hooks.signal ? { signal: hooks.signal } : {}),
      });
      await hooks.onResponse?.(fetched);
      if (fetched.result.status < 200 || fetched.result.status >= 300) {
        fail(`TRES_HTTP_${fetched.result.status}`);
        continue;
      }
      body = fetched.result.body;
      finalUrl = fetched.finalUrl;
    } catch (error) {
      if (hooks.signal?.aborted) throw hooks.signal.reason;
      fail(errorCode(error));
      continue;
    }
    try {
      const parsed = parseSitemap(body, finalUrl, {
        maxDecompressedBytes: options.maxDecompressedBytes,
        maxUrls: options.maxUrls - stats.urls,
      });
      if (parsed.kind === 'index') {
        const before = queue.length;
        for (const child of parsed.urls) enqueue(child);
        hooks.onSitemap?.({ url, kind: parsed.kind, urls: queue.length - before });
        continue;
      }
      stats.urls += parsed.urls.length;
      // sitemaps.org: "all URLs listed in the Sitemap must use the same protocol and reside on
      // the same host as the Sitemap"; a sitemap cannot speak for another site.
      const host = new URL(finalUrl).host;
      const pages: string[] = [];
      for (const raw of parsed.urls) {
        const page = normalizeUrl(raw);
        if (page !== undefined && new URL(page).host === host && hooks.isUrlAllowed(page)) pages.push(page);
      }
      if (pages.length > 0) hooks.onUrls(pages);
      hooks.onSitemap?.({ url, kind: parsed.kind, urls: pages.length });
    } catch (error) {
      fail(errorCode(error));
    }
  }
  return stats;
}
