/**
 * The crawl's bound on the frontier held in memory (`maxFrontierUrls`). Past it, the links of
 * each page recorded from then on are held back from the strategy: `observe` gets the page
 * without its links (it learns and counts the page at once), and the links stay on disk, where
 * the crawl store keeps every page's outlinks anyway. Whenever the strategy's frontier is under
 * the bound, held pages' links go to it again, a page at a time (`Strategy.queueLinks`), until
 * it is at the bound: the strategy values each link as it arrives, with what it has learned by
 * then.
 *
 * In memory a held page is its id, its place in the order and its link count; nothing per held
 * URL, and nothing beyond the pages' rows on disk. Pages are handed over in the order the
 * strategy asks for (`Strategy.heldLinksOrder`): in fetch order, so that a first-in first-out
 * strategy (bfs) fetches in the same order as with no bound while its frontier never runs dry;
 * or the page judged most probably relevant first, for a strategy that values a link by its
 * page's relevance. A resume's replay goes through the same gate, so a resumed crawl holds back
 * the same kind of frontier it stopped with, rebuilt from the stored pages alone.
 *
 * No URL is queued twice nor fetched twice: links handed over are first checked against the
 * store and the fetches in flight or waiting (`isKnown`); a URL queued already is the strategy's
 * to merge, as when two pages link it. Seeds (and URLs added as seeds while crawling, sitemaps'
 * included) go to the strategy directly. A strategy without `queueLinks` is never held back from.
 */
import { BinaryHeap } from '../frontier/index.js';
import type { Strategy } from '../strategies/index.js';
import type { Outcome } from '../types/index.js';

/** A held page: its id, its place in the hand-over order, the links it was recorded with. */
interface HeldPage {
  id: number;
  key: number;
  links: number;
}

/** What {@link FrontierSpill} reads of the crawl store. */
export interface HeldPages {
  /** Outcomes of the recorded fetches with ids from `fromId`, at most `limit`, in fetch order. */
  outcomesFrom(fromId: number, limit: number): Array<{ id: number; outcome: Outcome }>;
}

/** What {@link FrontierSpill.snapshot} returns: the held pages (in no order) and the counters. */
export interface FrontierSpillSnapshot {
  ids: Int32Array;
  keys: Float64Array;
  links: Int32Array;
  heldLinks: number;
  spilledPages: number;
  refills: number;
}

export interface FrontierSpillOptions {
  store: HeldPages;
  strategy: Strategy;
  /** True for a URL fetched, redirected to, in flight or waiting for a retry. */
  isKnown: (url: string) => boolean;
  /** URLs the strategy's frontier may hold before links are held back; false for no bound. */
  maxFrontierUrls: number | false;
}

/** Holds links back from the strategy while its frontier is over the crawl's bound (see the file comment). */
export class FrontierSpill {
  /** The held pages, the next to hand over on top. */
  private readonly pages = new BinaryHeap<HeldPage>(
    (a, b) => a.key < b.key || (a.key === b.key && a.id < b.id),
  );
  private readonly isByProbability: boolean;
  private heldLinkCount = 0;
  private spilledPages = 0;
  private refills = 0;
  private readonly limit: number | undefined;

  constructor(private readonly o: FrontierSpillOptions) {
    this.limit =
      o.maxFrontierUrls === false || o.strategy.queueLinks === undefined ? undefined : o.maxFrontierUrls;
    this.isByProbability = o.strategy.heldLinksOrder === 'probability';
  }

  /**
   * Links of held pages, not yet handed to the strategy (as found: some may have been fetched
   * since, or be queued already). 0 when none is held.
   */
  get heldLinks(): number {
    return this.heldLinkCount;
  }

  /** True while some recorded page's links are held back. */
  get isHolding(): boolean {
    return this.pages.size > 0;
  }

  /** Figures for the progress line and benchmarks: held links, pages held in all, hand-overs. */
  stats(): Record<string, number> {
    return {
      'frontier/held_links': this.heldLinkCount,
      'frontier/held_pages_total': this.spilledPages,
      'frontier/refills': this.refills,
    };
  }

  /** The held pages and counters, for a frontier snapshot (see crawl/frontier-snapshots.ts). */
  snapshot(): FrontierSpillSnapshot {
    const n = this.pages.size;
    const ids = new Int32Array(n);
    const keys = new Float64Array(n);
    const links = new Int32Array(n);
    let i = 0;
    for (const page of this.pages.values()) {
      ids[i] = page.id;
      keys[i] = page.key;
      links[i] = page.links;
      i++;
    }
    return {
      ids,
      keys,
      links,
      heldLinks: this.heldLinkCount,
      spilledPages: this.spilledPages,
      refills: this.refills,
    };
  }

  /**
   * Loads a {@link FrontierSpill.snapshot} into a spill that holds nothing yet. The hand-over
   * order is a total order (key, then page id), so the pages come back in the order they would
   * have.
   */
  restore(snapshot: FrontierSpillSnapshot): void {
    for (let i = 0; i < snapshot.ids.length; i++) {
      this.pages.push({
        id: snapshot.ids[i] as number,
        key: snapshot.keys[i] as number,
        links: snapshot.links[i] as number,
      });
    }
    this.heldLinkCount = snapshot.heldLinks;
    this.spilledPages = snapshot.spilledPages;
    this.refills = snapshot.refills;
  }

  /**
   * Whether the links of the page about to be recorded (`linkCount` of them) are held back:
   * while any are, or when they would take the frontier past the bound.
   */
  shouldHold(linkCount: number): boolean {
    if (this.limit === undefined) return false;
    if (this.pages.size > 0) return true;
    return linkCount > 0 && this.frontierSize() + linkCount > this.limit;
  }

  /**
   * Recorded page `pageId`, judged relevant with `probability`, whose links (`linkCount`)
   * {@link shouldHold} held back.
   */
  held(pageId: number, linkCount: number, probability: number): void {
    this.pages.push({ id: pageId, key: this.isByProbability ? -probability : 0, links: linkCount });
    this.heldLinkCount += linkCount;
    this.spilledPages++;
  }

  /**
   * Hands held pages' links to the strategy, the next page first (see `Strategy.heldLinksOrder`),
   * while its frontier is under the bound and some are held.
   */
  refill(): void {
    // Without a bound pages are held only by a restored snapshot of a crawl that had one: all go.
    const limit = this.limit ?? Number.POSITIVE_INFINITY;
    if (this.pages.size === 0 || this.frontierSize() >= limit) return;
    this.refills++;
    const { store, strategy, isKnown } = this.o;
    while (this.pages.size > 0 && this.frontierSize() < limit) {
      const page = this.pages.pop() as HeldPage;
      this.heldLinkCount -= page.links;
      const [row] = store.outcomesFrom(page.id, 1);
      if (row === undefined || row.id !== page.id) continue;
      const { outcome } = row;
      // Every held page is handed over, none of its links left or not: the strategy lets go of
      // what it kept for the page's links (TRES: their path state).
      strategy.queueLinks?.({ ...outcome, links: outcome.links.filter((l) => !isKnown(l.url)) });
    }
    if (this.pages.size === 0) this.heldLinkCount = 0;
  }

  private frontierSize(): number {
    return this.o.strategy.stats()['frontier/size'];
  }
}
