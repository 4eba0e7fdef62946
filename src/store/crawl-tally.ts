/**
 * The one tally of a crawl's recorded fetches: loaded once from the rows when the store opens,
 * updated after each commit, and read by the crawl loop for its counters, its "fetched yet?" and
 * "pages of this domain?" questions, and the domain limit b. The crawl loop keeps only what is in
 * flight; nothing else counts recorded pages, so a resumed crawl starts from exactly what the
 * store holds.
 */

/** Counters of the recorded fetches of a crawl. */
export interface CrawlCounters {
  /** Fetch attempts recorded (the step t of the MDP; failures included). */
  steps: number;
  /** Attempts that gave an HTML page. */
  pages: number;
  /** Pages judged relevant (reward > 0). */
  relevant: number;
  /** Distinct registrable domains (or hosts, in host site mode) with a relevant page. */
  relevantDomains: number;
  /** Failed attempts (no page). */
  failures: number;
  /** Pages that copy a page recorded before them (counted in `pages`, never in `relevant`). */
  duplicates: number;
}

/** One recorded fetch as the tally sees it. */
export interface TallyEntry {
  id: number;
  url: string;
  finalUrl: string;
  domain: string;
  reward: number;
  isPage: boolean;
  /** A copy of an earlier page: an attempt and a page, never relevant. */
  isDuplicate?: boolean;
}

export class CrawlTally {
  /** Requested URLs, in fetch order. */
  private readonly fetched = new Set<string>();
  /** Final URLs that differ from their requested URL (redirect targets). */
  private readonly finalUrls = new Set<string>();
  /** Recorded fetches per registrable domain, failures included. */
  readonly perDomain = new Map<string, number>();
  private readonly relevantDomainSet = new Set<string>();
  /** The counters; read-only for callers. */
  readonly counters: CrawlCounters = {
    steps: 0,
    pages: 0,
    relevant: 0,
    relevantDomains: 0,
    failures: 0,
    duplicates: 0,
  };
  /** Id of the last recorded fetch (0: none). */
  lastId = 0;

  /** Counts one committed fetch. */
  add(entry: TallyEntry): void {
    const { url, finalUrl, domain } = entry;
    this.lastId = entry.id;
    this.fetched.add(url);
    if (finalUrl !== url) this.finalUrls.add(finalUrl);
    this.perDomain.set(domain, (this.perDomain.get(domain) ?? 0) + 1);
    const c = this.counters;
    c.steps++;
    if (!entry.isPage) {
      c.failures++;
      return;
    }
    c.pages++;
    if (entry.isDuplicate === true) {
      c.duplicates++;
      return;
    }
    if (entry.reward > 0) {
      c.relevant++;
      if (!this.relevantDomainSet.has(domain)) {
        this.relevantDomainSet.add(domain);
        c.relevantDomains++;
      }
    }
  }

  /** True if `url` was a requested URL. */
  has(url: string): boolean {
    return this.fetched.has(url);
  }

  /** True if a fetch was redirected to `url`. */
  isRedirectTarget(url: string): boolean {
    return this.finalUrls.has(url);
  }

  /** Recorded fetches of `domain`, failures included. */
  domainCount(domain: string): number {
    return this.perDomain.get(domain) ?? 0;
  }

  /** Requested URLs in fetch order. */
  urls(): IterableIterator<string> {
    return this.fetched.values();
  }

  /** Number of recorded fetches. */
  get count(): number {
    return this.counters.steps;
  }
}
