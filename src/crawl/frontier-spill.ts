/**
 * The crawl's bound on the frontier held in memory (`maxFrontierUrls`). Past it, the links of
 * each page recorded from then on are held back from the strategy: `observe` gets the page
 * without its links (it learns and counts the page at once), and the links stay on disk, where
 * the crawl store keeps every page's outlinks anyway. When the strategy's frontier falls to half
 * the bound, the held pages' links go to it again, page by page in fetch order
 * (`Strategy.queueLinks`), until it is full again: the strategy values each link as it arrives,
 * with what it has learned by then.
 *
 * What is held is always the pages after the last one whose links reached the strategy, so its
 * whole state is one page id: nothing per held URL is in memory, and nothing beyond the pages'
 * rows is on disk. Pages are handed over in the order they were recorded, so a first-in first-out
 * strategy (bfs) fetches in the same order as with no bound while its frontier never runs dry.
 * A resume's replay goes through the same gate, so a resumed crawl holds back the same kind of
 * frontier it stopped with, rebuilt from the stored pages alone.
 *
 * No URL is queued twice nor fetched twice: links handed over are first checked against the
 * store and the fetches in flight or waiting (`isKnown`); a URL queued already is the strategy's
 * to merge, as when two pages link it. Seeds (and URLs added as seeds while crawling, sitemaps'
 * included) go to the strategy directly. A strategy without `queueLinks` is never held back from.
 */
import type { Strategy } from '../strategies/index.js';
import type { Outcome } from '../types/index.js';

/** Pages read from the store per query while handing held links over. */
const REFILL_CHUNK_PAGES = 32;

/** What {@link FrontierSpill} reads of the crawl store. */
export interface HeldPages {
  /** Outcomes of the recorded fetches with ids from `fromId`, at most `limit`, in fetch order. */
  outcomesFrom(fromId: number, limit: number): Array<{ id: number; outcome: Outcome }>;
  /** Id of the last recorded fetch (0: none). */
  readonly lastPageId: number;
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
  /** Id of the first page whose links are held; undefined while none is. */
  private firstHeld: number | undefined;
  private heldLinkCount = 0;
  private spilledPages = 0;
  private refills = 0;
  private readonly limit: number | undefined;

  constructor(private readonly o: FrontierSpillOptions) {
    this.limit =
      o.maxFrontierUrls === false || o.strategy.queueLinks === undefined ? undefined : o.maxFrontierUrls;
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
    return this.firstHeld !== undefined;
  }

  /** Figures for the progress line and benchmarks: held links, pages held in all, hand-overs. */
  stats(): Record<string, number> {
    return {
      'frontier/held_links': this.heldLinkCount,
      'frontier/held_pages_total': this.spilledPages,
      'frontier/refills': this.refills,
    };
  }

  /**
   * Whether the links of the page about to be recorded (`linkCount` of them) are held back:
   * while any are, or when they would take the frontier past the bound.
   */
  shouldHold(linkCount: number): boolean {
    if (this.limit === undefined) return false;
    if (this.firstHeld !== undefined) return true;
    return linkCount > 0 && this.frontierSize() + linkCount > this.limit;
  }

  /** Recorded page `pageId`, whose links (`linkCount`) {@link shouldHold} held back. */
  held(pageId: number, linkCount: number): void {
    this.firstHeld ??= pageId;
    this.heldLinkCount += linkCount;
    this.spilledPages++;
  }

  /**
   * Hands held pages' links to the strategy when its frontier has fallen to half the bound, until
   * it is at the bound again or nothing is held.
   */
  refill(): void {
    if (this.firstHeld === undefined || this.limit === undefined) return;
    if (this.frontierSize() > this.limit / 2) return;
    this.refills++;
    const { store, strategy, isKnown } = this.o;
    while (this.firstHeld !== undefined && this.frontierSize() < this.limit) {
      const rows = store.outcomesFrom(this.firstHeld, REFILL_CHUNK_PAGES);
      for (const { id, outcome } of rows) {
        this.firstHeld = id + 1;
        this.heldLinkCount -= outcome.links.length;
        // Every held page is handed over, none of its links left or not: the strategy lets go of
        // what it kept for the page's links (TRES: their path state).
        strategy.queueLinks?.({ ...outcome, links: outcome.links.filter((l) => !isKnown(l.url)) });
        if (this.frontierSize() >= this.limit) break;
      }
      if (rows.length === 0 || this.firstHeld > store.lastPageId) {
        this.firstHeld = undefined;
        this.heldLinkCount = 0;
      }
    }
  }

  private frontierSize(): number {
    return this.o.strategy.stats()['frontier/size'];
  }
}
