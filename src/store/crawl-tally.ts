/**
 * In-memory tallies of a crawl's recorded fetches, loaded once at open and updated after each
 * commit, so that the crawl loop's frequent questions (fetched yet? pages of this domain?) never
 * touch the database.
 */
export class CrawlTally {
  /** Requested URLs, in fetch order. */
  private readonly fetched = new Set<string>();
  /** Final URLs that differ from their requested URL (redirect targets). */
  private readonly finalUrls = new Set<string>();
  /** Recorded fetches per registrable domain, failures included. */
  readonly perDomain = new Map<string, number>();
  /** Pages with reward > 0. */
  relevant = 0;
  /** Id of the last recorded fetch (0: none). */
  lastId = 0;

  /** Counts one committed fetch. */
  add(id: number, url: string, finalUrl: string, domain: string, reward: number): void {
    this.lastId = id;
    this.fetched.add(url);
    if (finalUrl !== url) this.finalUrls.add(finalUrl);
    this.perDomain.set(domain, (this.perDomain.get(domain) ?? 0) + 1);
    if (reward > 0) this.relevant++;
  }

  /** True if `url` was a requested URL. */
  has(url: string): boolean {
    return this.fetched.has(url);
  }

  /** True if a fetch was redirected to `url`. */
  isRedirectTarget(url: string): boolean {
    return this.finalUrls.has(url);
  }

  /** Requested URLs in fetch order. */
  urls(): IterableIterator<string> {
    return this.fetched.values();
  }

  /** Number of recorded fetches. */
  get count(): number {
    return this.fetched.size;
  }
}
