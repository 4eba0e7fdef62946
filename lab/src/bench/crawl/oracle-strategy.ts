/**
 * The oracle: a benchmark-only strategy that knows the ground-truth label of every linked page
 * and fetches relevant pages first (best-first on the truth). Among relevant links it takes one
 * of the site it has fetched fewest pages from (so that, like the papers' crawlers with a domain
 * limit, it spreads over relevant sites instead of emptying the seed's site first; its harvest
 * rate is the same greedy bound), breadth-first within a site and among irrelevant links. It gives
 * the upper bound a strategy can reach from a seed within a page budget on a web, with or without
 * a domain limit, and the reports show every strategy as a fraction of it. It lives in bench/,
 * not in strategies/: no crawler can know the truth.
 */

import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from 'tres-crawler';

/** Name of the oracle in benchmark options and reports. */
export const ORACLE_STRATEGY = 'oracle';

/** A FIFO queue with lazy removal: entries are skipped when taken or found unusable. */
class Fifo {
  private items: DiscoveredLink[] = [];
  private head = 0;

  push(link: DiscoveredLink): void {
    this.items.push(link);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /**
   * The first entry `isUsable` accepts (removed), dropping entries `isDead` rejects on the way;
   * entries blocked for now (host busy, domain full but not closed) stay in order.
   */
  take(isDead: (l: DiscoveredLink) => boolean, isUsable: (l: DiscoveredLink) => boolean) {
    while (this.head < this.items.length && isDead(this.items[this.head] as DiscoveredLink)) this.head++;
    for (let i = this.head; i < this.items.length; i++) {
      const link = this.items[i] as DiscoveredLink;
      if (isDead(link) || !isUsable(link)) continue;
      this.items.splice(i, 1);
      return link;
    }
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return undefined;
  }
}

/** Best-first on the ground truth; relevant links of the least-fetched site first; BFS among ties. */
export class OracleStrategy implements Strategy {
  readonly name = ORACLE_STRATEGY;
  /** Relevant links per site, sites in order of discovery. */
  private readonly relevant = new Map<string, Fifo>();
  private readonly other = new Fifo();
  private readonly queued = new Set<string>();
  /** Pages fetched (attempted) per site. */
  private readonly fetchedPerSite = new Map<string, number>();

  /** @param labelOf the topic's ground truth: true if the URL's page is relevant */
  constructor(private readonly labelOf: (url: string) => boolean) {}

  seed(links: DiscoveredLink[]): void {
    for (const link of links) this.add(link);
  }

  next(ctx: SelectionContext): Action | undefined {
    const isDead = (l: DiscoveredLink) => ctx.isFetched(l.url) || ctx.isDomainClosed(l.domain);
    const isUsable = (l: DiscoveredLink) => ctx.isHostReady(l.host) && ctx.isDomainOpen(l.domain);
    const link = this.takeRelevant(isDead, isUsable) ?? this.other.take(isDead, isUsable);
    if (!link) return undefined;
    this.queued.delete(link.url);
    this.fetchedPerSite.set(link.domain, (this.fetchedPerSite.get(link.domain) ?? 0) + 1);
    return { url: link.url, host: link.host, domain: link.domain, depth: link.depth };
  }

  observe(outcome: Outcome): void {
    for (const link of outcome.links) this.add(link);
  }

  stats(): StrategyStats {
    let relevant = 0;
    for (const fifo of this.relevant.values()) relevant += fifo.size;
    return { 'frontier/size': relevant + this.other.size, 'oracle/relevant_queued': relevant };
  }

  /** A usable relevant link of the site with the fewest fetched pages (first discovered on ties). */
  private takeRelevant(isDead: (l: DiscoveredLink) => boolean, isUsable: (l: DiscoveredLink) => boolean) {
    const sites = [...this.relevant.entries()]
      .filter(([, fifo]) => fifo.size > 0)
      .map(([site, fifo], order) => ({ fifo, order, fetched: this.fetchedPerSite.get(site) ?? 0 }))
      .sort((a, b) => a.fetched - b.fetched || a.order - b.order);
    for (const { fifo } of sites) {
      const link = fifo.take(isDead, isUsable);
      if (link) return link;
    }
    return undefined;
  }

  private add(link: DiscoveredLink): void {
    if (this.queued.has(link.url)) return;
    this.queued.add(link.url);
    if (!this.labelOf(link.url)) {
      this.other.push(link);
      return;
    }
    let fifo = this.relevant.get(link.domain);
    if (!fifo) {
      fifo = new Fifo();
      this.relevant.set(link.domain, fifo);
    }
    fifo.push(link);
  }
}
