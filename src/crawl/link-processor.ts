/**
 * Turns the raw links of a page (or the seed list) into the normalised, in-scope, deduplicated
 * `DiscoveredLink`s the strategy sees. Runs once per outlink: keep it cheap.
 */
import { ConfigError } from '../common/index.js';
import type { ParsedLink } from '../html/index.js';
import type { DiscoveredLink } from '../types/index.js';
import {
  createUrlFilter,
  createUrlFilterReason,
  hostOf,
  hostSite,
  normalizeUrl,
  registrableDomain,
  type UrlFilter,
  type UrlFilterOptions,
} from '../url/index.js';

export interface LinkProcessorOptions {
  siteMode: 'domain' | 'host';
  urlFilter: UrlFilterOptions;
  /** Links deeper than this are dropped; false for no limit. */
  maxDepth: number | false;
}

export class LinkProcessor {
  private readonly isAllowed: UrlFilter;
  private readonly isAllowedAnyExtension: UrlFilter;
  private readonly reasonOf: (url: string) => string | undefined;

  constructor(private readonly options: LinkProcessorOptions) {
    this.isAllowed = createUrlFilter(options.urlFilter);
    this.reasonOf = createUrlFilterReason(options.urlFilter);
    this.isAllowedAnyExtension = createUrlFilter({ ...options.urlFilter, excludedExtensions: false });
  }

  /** Why the crawl's URL filter rejects `url`, naming the option; undefined when it does not. */
  whyRejected(url: string): string | undefined {
    return this.reasonOf(url);
  }

  /** The crawl's URL filter with file extensions let through (sitemaps `.xml.gz`, scripts of a rendered page). */
  isResourceAllowed(url: string): boolean {
    return this.isAllowedAnyExtension(url);
  }

  /** True if the URL passes the crawl's URL filter (used for every redirect hop too). */
  isUrlAllowed(url: string): boolean {
    return this.isAllowed(url);
  }

  /**
   * Normalises seed URLs.
   * @throws ConfigError listing every seed that is not an http(s) URL.
   */
  seeds(urls: string[]): DiscoveredLink[] {
    const bad: string[] = [];
    const out: DiscoveredLink[] = [];
    const seen = new Set<string>();
    for (const raw of urls) {
      const url = normalizeUrl(raw.trim());
      if (url === undefined) {
        bad.push(raw);
        continue;
      }
      if (seen.has(url)) continue;
      seen.add(url);
      out.push(this.link(url, '', 0));
    }
    if (bad.length > 0) {
      throw new ConfigError(
        `these seeds are not http(s) URLs: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''}`,
        {
          context: { field: 'seeds' },
        },
      );
    }
    return out;
  }

  /**
   * Normalised, filtered links of a page at `depth`, first occurrence of each URL kept, URLs for
   * which `isKnown` is true (fetched or in flight) left out.
   */
  pageLinks(
    links: readonly ParsedLink[],
    depth: number,
    options: { shouldFollowNofollow: boolean; isKnown: (url: string) => boolean },
  ): DiscoveredLink[] {
    const maxDepth = this.options.maxDepth;
    if (maxDepth !== false && depth > maxDepth) return [];
    const out: DiscoveredLink[] = [];
    const seen = new Set<string>();
    for (const raw of links) {
      if (raw.isNofollow && !options.shouldFollowNofollow) continue;
      const url = normalizeUrl(raw.url);
      if (url === undefined || seen.has(url) || options.isKnown(url) || !this.isAllowed(url)) continue;
      seen.add(url);
      const link = this.link(url, raw.anchorText, depth);
      if (raw.context) link.context = raw.context;
      out.push(link);
    }
    return out;
  }

  private link(url: string, anchorText: string, depth: number): DiscoveredLink {
    const host = hostOf(url);
    const domain = this.options.siteMode === 'host' ? hostSite(host) : registrableDomain(host);
    return { url, host, domain, anchorText, depth };
  }
}
