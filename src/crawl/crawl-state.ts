/**
 * The crawl's own bookkeeping: which URLs are fetched or in flight, pages per domain (for the
 * domain limit b), relevant pages and relevant domains. Rebuilt from the store on resume.
 */
export interface CrawlCounters {
  /** Fetch attempts recorded (the step t of the MDP; failures included). */
  steps: number;
  /** Attempts that gave an HTML page. */
  pages: number;
  /** Pages judged relevant (reward 1). */
  relevant: number;
  /** Distinct domains with at least one relevant page. */
  relevantDomains: number;
  /** Failed attempts (no page). */
  failures: number;
}

export class CrawlState {
  private readonly fetched = new Set<string>();
  private readonly inFlight = new Set<string>();
  private readonly inFlightHosts = new Map<string, number>();
  private readonly inFlightDomains = new Map<string, number>();
  private readonly domainPages = new Map<string, number>();
  private readonly relevantDomainSet = new Set<string>();
  readonly counters: CrawlCounters = { steps: 0, pages: 0, relevant: 0, relevantDomains: 0, failures: 0 };

  isFetchedOrInFlight(url: string): boolean {
    return this.fetched.has(url) || this.inFlight.has(url);
  }

  isHostBusy(host: string): boolean {
    return (this.inFlightHosts.get(host) ?? 0) > 0;
  }

  /** Pages fetched from `domain` (in flight excluded). */
  domainCount(domain: string): number {
    return this.domainPages.get(domain) ?? 0;
  }

  /** Pages fetched from `domain` plus fetches of it in flight. */
  domainLoad(domain: string): number {
    return this.domainCount(domain) + (this.inFlightDomains.get(domain) ?? 0);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(url: string, host: string, domain: string): void {
    this.inFlight.add(url);
    bump(this.inFlightHosts, host, 1);
    bump(this.inFlightDomains, domain, 1);
  }

  finish(url: string, host: string, domain: string): void {
    this.inFlight.delete(url);
    bump(this.inFlightHosts, host, -1);
    bump(this.inFlightDomains, domain, -1);
  }

  /** Counts one recorded attempt. `finalUrl` is marked fetched too, so it is not fetched again. */
  record(url: string, finalUrl: string, domain: string, isPage: boolean, reward: number): void {
    this.fetched.add(url);
    this.fetched.add(finalUrl);
    const c = this.counters;
    c.steps++;
    bump(this.domainPages, domain, 1);
    if (!isPage) {
      c.failures++;
      return;
    }
    c.pages++;
    if (reward > 0) {
      c.relevant++;
      if (!this.relevantDomainSet.has(domain)) {
        this.relevantDomainSet.add(domain);
        c.relevantDomains++;
      }
    }
  }
}

function bump(map: Map<string, number>, key: string, delta: number): void {
  const value = (map.get(key) ?? 0) + delta;
  if (value === 0) map.delete(key);
  else map.set(key, value);
}
