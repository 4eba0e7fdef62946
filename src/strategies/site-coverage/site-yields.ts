/**
 * What `coverage` knows of sites and hubs, as counts of fetched and judged-relevant pages, and
 * the Beta-posterior estimates made from them. A site is a host without `www.` (as the benchmarks
 * count relevant sites). Counts live in typed arrays by interned site id or parent-page index.
 */
import { grownArray as grown } from '../../frontier/index.js';

/**
 * The posterior mean of a Beta prior with `k` pseudo-observations at mean `prior`, after
 * `successes` of `trials`: (successes + k * prior) / (trials + k). With no trials it is `prior`.
 */
export function shrunk(successes: number, trials: number, prior: number, k: number): number {
  return (successes + k * prior) / (trials + k);
}

/** The site of a host: the host without a leading `www.`. */
export function siteOf(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Everything a {@link SiteYields} holds (see {@link SiteYields.snapshot}). */
export interface SiteYieldsSnapshot {
  /** Sites by id. */
  sites: string[];
  /** Per site id. */
  fetched: Int32Array;
  relevant: Float64Array;
  uncovered: Float64Array;
  siteHubFollowed: Int32Array;
  siteHubRelevant: Float64Array;
  sitesFound: Float64Array;
  /** Per parent index. */
  parentSite: Int32Array;
  hubFollowed: Int32Array;
  hubRelevant: Float64Array;
  allSitesFound: number;
  allFetched: number;
  allRelevant: number;
  allCovered: number;
}

/**
 * Fetched and judged-relevant counts per site, per hub page and per hub site. A fetch's gain is
 * 1 or 0 (judged relevant or not); the sums are kept as floating-point numbers, so a gain in
 * between (a probability) would make them expected counts, and a site's "uncovered" mass the
 * probability that none of its fetched pages was relevant.
 */
export class SiteYields {
  private readonly siteIds = new Map<string, number>();
  /** Per site id: pages fetched (attempts) and judged relevant. */
  private fetched = new Int32Array(256);
  private relevant = new Float64Array(256);
  /** Per site id: the probability that none of its fetched pages was relevant (1 before any). */
  private uncovered = new Float64Array(256).fill(1);
  /** Per site id, as a parent: off-site links followed from its pages, and relevant targets. */
  private siteHubFollowed = new Int32Array(256);
  private siteHubRelevant = new Float64Array(256);
  /** Per parent-page index: its site id, off-site links followed from it, relevant targets. */
  private parentSite = new Int32Array(1024);
  private hubFollowed = new Int32Array(1024);
  private hubRelevant = new Float64Array(1024);
  private parents = 0;
  /**
   * Per site id: relevant sites first found through a link from one of its pages; and over all sites, such finds and fetch attempts (the prior of {@link sitesFoundPerPage}).
   */
  private sitesFound = new Float64Array(256);
  private allSitesFound = 0;
  private allFetched = 0;
  /** Over all sites: judged-relevant pages, and sites with one. */
  private allRelevant = 0;
  private allCovered = 0;

  /** The id of `site` (a new id the first time). */
  siteId(site: string): number {
    let id = this.siteIds.get(site);
    if (id === undefined) {
      id = this.siteIds.size;
      this.siteIds.set(site, id);
      if (id >= this.fetched.length) {
        const n = this.fetched.length * 2;
        this.fetched = grown(this.fetched, n);
        this.relevant = grown(this.relevant, n);
        const uncovered = new Float64Array(n).fill(1);
        uncovered.set(this.uncovered);
        this.uncovered = uncovered;
        this.siteHubFollowed = grown(this.siteHubFollowed, n);
        this.siteHubRelevant = grown(this.siteHubRelevant, n);
        this.sitesFound = grown(this.sitesFound, n);
      }
    }
    return id;
  }

  /** The id of `site` if it has one (none is made). */
  knownSiteId(site: string): number | undefined {
    return this.siteIds.get(site);
  }

  /** Every count and site id, copied (a frontier snapshot). */
  snapshot(): SiteYieldsSnapshot {
    const n = this.siteIds.size;
    const p = this.parents;
    return {
      sites: [...this.siteIds.keys()],
      fetched: this.fetched.slice(0, n),
      relevant: this.relevant.slice(0, n),
      uncovered: this.uncovered.slice(0, n),
      siteHubFollowed: this.siteHubFollowed.slice(0, n),
      siteHubRelevant: this.siteHubRelevant.slice(0, n),
      sitesFound: this.sitesFound.slice(0, n),
      parentSite: this.parentSite.slice(0, p),
      hubFollowed: this.hubFollowed.slice(0, p),
      hubRelevant: this.hubRelevant.slice(0, p),
      allSitesFound: this.allSitesFound,
      allFetched: this.allFetched,
      allRelevant: this.allRelevant,
      allCovered: this.allCovered,
    };
  }

  /** Loads a {@link SiteYields.snapshot} into these yields, which must hold no site yet. */
  restore(s: SiteYieldsSnapshot): void {
    for (let id = 0; id < s.sites.length; id++) this.siteIds.set(s.sites[id] as string, id);
    const n = Math.max(this.fetched.length, s.sites.length * 2);
    this.fetched = grown(this.fetched, n);
    this.fetched.set(s.fetched);
    this.relevant = grown(this.relevant, n);
    this.relevant.set(s.relevant);
    const uncovered = new Float64Array(n).fill(1);
    uncovered.set(s.uncovered);
    this.uncovered = uncovered;
    this.siteHubFollowed = grown(this.siteHubFollowed, n);
    this.siteHubFollowed.set(s.siteHubFollowed);
    this.siteHubRelevant = grown(this.siteHubRelevant, n);
    this.siteHubRelevant.set(s.siteHubRelevant);
    this.sitesFound = grown(this.sitesFound, n);
    this.sitesFound.set(s.sitesFound);
    const parents = s.parentSite.length;
    const m = Math.max(this.parentSite.length, parents * 2);
    this.parentSite = grown(this.parentSite, m);
    this.parentSite.set(s.parentSite);
    this.hubFollowed = grown(this.hubFollowed, m);
    this.hubFollowed.set(s.hubFollowed);
    this.hubRelevant = grown(this.hubRelevant, m);
    this.hubRelevant.set(s.hubRelevant);
    this.parents = parents;
    this.allSitesFound = s.allSitesFound;
    this.allFetched = s.allFetched;
    this.allRelevant = s.allRelevant;
    this.allCovered = s.allCovered;
  }

  /** Number of sites seen. */
  get siteCount(): number {
    return this.siteIds.size;
  }

  /** Registers a fetched page with outlinks as a parent on site `site`; returns its index. */
  addParent(site: number): number {
    const p = this.parents++;
    if (p >= this.parentSite.length) {
      const n = this.parentSite.length * 2;
      this.parentSite = grown(this.parentSite, n);
      this.hubFollowed = grown(this.hubFollowed, n);
      this.hubRelevant = grown(this.hubRelevant, n);
    }
    this.parentSite[p] = site;
    return p;
  }

  /** Site id of parent page `parent`. */
  siteOfParent(parent: number): number {
    return this.parentSite[parent] as number;
  }

  /**
   * Records a fetch attempt on `site` with gain `gain` in [0, 1] (1 or 0: judged relevant or not),
   * reached from `parent` (-1: a seed); off-site links count for
   * the parent's and its site's hub yields.
   */
  record(site: number, gain: number, parent: number): void {
    const wasUncovered = this.uncovered[site] as number;
    this.fetched[site] = (this.fetched[site] as number) + 1;
    this.relevant[site] = (this.relevant[site] as number) + gain;
    this.uncovered[site] = wasUncovered * (1 - gain);
    this.allFetched++;
    this.allRelevant += gain;
    this.allCovered += wasUncovered * gain;
    if (parent < 0) return;
    const from = this.parentSite[parent] as number;
    if (from === site) return;
    // A site's first relevant page, reached from a page of `from`: a find of `from`'s.
    const found = wasUncovered * gain;
    this.sitesFound[from] = (this.sitesFound[from] as number) + found;
    this.allSitesFound += found;
    this.hubFollowed[parent] = (this.hubFollowed[parent] as number) + 1;
    this.siteHubFollowed[from] = (this.siteHubFollowed[from] as number) + 1;
    this.hubRelevant[parent] = (this.hubRelevant[parent] as number) + gain;
    this.siteHubRelevant[from] = (this.siteHubRelevant[from] as number) + gain;
  }

  /** Pages of `site` judged relevant so far. */
  relevantOf(site: number): number {
    return this.relevant[site] as number;
  }

  /**
   * Judged-relevant pages per site that gave one, over the crawl so far: `prior` shrunk by `k`
   * pseudo-sites.
   */
  relevantPerCoveredSite(prior: number, k: number): number {
    return shrunk(this.allRelevant, this.allCovered, prior, k);
  }

  /** The probability that no fetched page of `site` was relevant (1 or 0 when gains are 0/1). */
  uncoveredOf(site: number): number {
    return this.uncovered[site] as number;
  }

  /** Fetch attempts on `site` so far. */
  fetchedOf(site: number): number {
    return this.fetched[site] as number;
  }

  /** `prior` shrunk to the site's yield (k pseudo-pages). */
  siteEstimate(site: number, prior: number, k: number): number {
    return shrunk(this.relevant[site] as number, this.fetched[site] as number, prior, k);
  }

  /**
   * New relevant sites found per page fetched from `site` (through links out of its pages), shrunk
   * to the crawl's mean over all sites with `k` pseudo-pages: how good a hub the site has been.
   */
  sitesFoundPerPage(site: number, k: number): number {
    const prior = this.allFetched > 0 ? this.allSitesFound / this.allFetched : 0;
    return shrunk(this.sitesFound[site] as number, this.fetched[site] as number, prior, k);
  }

  /** `prior` shrunk to the off-site yield of the parent's site, then of the parent page itself. */
  hubEstimate(parent: number, prior: number, k: number): number {
    const from = this.parentSite[parent] as number;
    const bySite = shrunk(
      this.siteHubRelevant[from] as number,
      this.siteHubFollowed[from] as number,
      prior,
      k,
    );
    return shrunk(this.hubRelevant[parent] as number, this.hubFollowed[parent] as number, bySite, k);
  }
}
