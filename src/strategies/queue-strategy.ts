/**
 * The plain strategies of the papers' comparisons: a frontier and a fixed order, no learner.
 * - `bfs`: breadth-first, first discovered first fetched (priority frontier, key = discovery).
 * - `random`: a uniformly random frontier URL each step (the papers' Random baseline; random
 *   bag frontier).
 * - `best-first`: priority of a link = relevance probability of the page it was found on
 *   (the baseline crawler of Chakrabarti et al. 2002, section 1; ACHE's default without a link
 *   classifier). A URL found again on a more relevant page moves up.
 */
import type { Rng } from '../common/index.js';
import type { IndexedFrontier } from '../frontier/index.js';
import { IndexedPriorityFrontier, IndexedRandomFrontier } from '../frontier/index.js';
import type { Action, DiscoveredLink, Outcome, SelectionContext } from '../types/index.js';
import type { Strategy, StrategyStats } from './strategy.js';
import { WaitingUrls } from './waiting-urls.js';

/** How a plain strategy orders its frontier. */
export type QueueOrder = 'bfs' | 'random' | 'best-first';

export interface QueueStrategyOptions {
  order: QueueOrder;
  /** Random stream for `random` (and nothing else). */
  rng: Rng;
}

/** A strategy that is just an ordering of the frontier. */
export class QueueStrategy implements Strategy {
  readonly name: string;
  /** Held links come back best page first for best-first, in fetch order for the others. */
  readonly heldLinksOrder: 'fetched' | 'probability';
  /** `random`: a random bag; `bfs` and `best-first`: a priority frontier; both of ids. */
  private readonly frontier: IndexedFrontier;
  private readonly queue: IndexedPriorityFrontier | undefined;
  /** Best key a URL was queued with; a URL is queued again only with a better key. */
  private readonly queuedKey = new Map<string, number>();
  /** URLs of fetched pages with queued outlinks, by the index the samples' `parent` holds. */
  private readonly parents: string[] = [];
  private sequence = 0;
  /** The frontier's size: the priority frontier's own count holds stale samples. */
  private readonly waiting = new WaitingUrls();

  constructor(private readonly options: QueueStrategyOptions) {
    this.name = options.order;
    this.heldLinksOrder = options.order === 'best-first' ? 'probability' : 'fetched';
    if (options.order === 'random') this.frontier = new IndexedRandomFrontier(options.rng);
    else {
      this.queue = new IndexedPriorityFrontier();
      this.frontier = this.queue;
    }
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) this.enqueue(link, -1, 1);
  }

  next(ctx: SelectionContext): Action | undefined {
    const [id] = this.frontier.draw(ctx);
    if (id === undefined) return undefined;
    const t = this.frontier.table;
    const action: Action = { url: t.url(id), host: t.host(id), domain: t.domain(id), depth: t.depth(id) };
    const parent = t.parent(id);
    if (parent >= 0) action.parentUrl = this.parents[parent] as string;
    this.frontier.take(id);
    this.waiting.drew(action.url);
    return action;
  }

  observe(outcome: Outcome): void {
    // The URL (and its redirect target) must not come out again, also when resuming: it is
    // never queued again, and its queued copies go (the priority frontier drops them lazily).
    for (const url of new Set([outcome.action.url, outcome.finalUrl])) {
      const key = this.queuedKey.get(url);
      this.waiting.observed(url, key !== undefined && key !== Number.NEGATIVE_INFINITY);
      this.queuedKey.set(url, Number.NEGATIVE_INFINITY);
      this.frontier.removeUrl(url);
    }
    this.queueLinks(outcome);
  }

  /** Queues `outcome`'s links with its page as their parent (the links part of `observe`). */
  queueLinks(outcome: Outcome): void {
    if (outcome.links.length === 0) return;
    const parent = this.parents.push(outcome.action.url) - 1;
    for (const link of outcome.links) this.enqueue(link, parent, outcome.probability);
  }

  stats(): StrategyStats {
    return { ...this.frontier.stats(), 'frontier/size': this.waiting.size };
  }

  /** Queues `link`; `parent` indexes {@link QueueStrategy.parents} (-1 for a seed). */
  private enqueue(link: DiscoveredLink, parent: number, parentProbability: number): void {
    const previous = this.queuedKey.get(link.url);
    if (previous !== undefined && this.options.order !== 'best-first') return;
    const key = this.keyOf(parentProbability);
    if (previous !== undefined && previous <= key) return;
    if (previous === undefined) this.waiting.queued();
    this.queuedKey.set(link.url, key);
    if (this.queue) this.queue.addWithKey(link, parent, key);
    else this.frontier.add(link, parent);
  }

  private keyOf(parentProbability: number): number {
    switch (this.options.order) {
      case 'bfs':
        return this.sequence++;
      case 'random':
        return 0; // unused: the random bag draws uniformly
      case 'best-first':
        // Higher probability first; equal probabilities in discovery order.
        return -parentProbability + this.sequence++ * 1e-12;
    }
  }
}
