/**
 * The plain strategies of the papers' comparisons: a frontier and a fixed order, no learner.
 * - `bfs`: breadth-first, first discovered first fetched (priority frontier, key = discovery).
 * - `random`: a uniformly random frontier URL each step (the papers' Random baseline; random
 *   bag frontier).
 * - `best-first`: priority of a link = relevance probability of the page it was found on
 *   (the baseline crawler of Chakrabarti et al. 2002, section 1; ACHE's default without a link
 *   classifier). A URL found again on a more relevant page moves up.
 */
import type { Rng } from '../common/rng.js';
import { RandomFrontier } from '../frontier/bag-frontier.js';
import type { Frontier } from '../frontier/frontier.js';
import { type FrontierItem, PriorityFrontier } from '../frontier/priority-frontier.js';
import type {
  Action,
  DiscoveredLink,
  Outcome,
  SelectionContext,
  Strategy,
  StrategyStats,
} from './strategy.js';

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
  private readonly frontier: Frontier<FrontierItem>;
  /** Best key a URL was queued with; a URL is queued again only with a better key. */
  private readonly queuedKey = new Map<string, number>();
  private sequence = 0;

  constructor(private readonly options: QueueStrategyOptions) {
    this.name = options.order;
    this.frontier =
      options.order === 'random' ? new RandomFrontier<FrontierItem>(options.rng) : new PriorityFrontier();
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) this.enqueue(link, undefined, 1);
  }

  next(ctx: SelectionContext): Action | undefined {
    const [item] = this.frontier.draw(ctx);
    if (!item) return undefined;
    this.frontier.take(item);
    const { key: _key, ...action } = item;
    return action;
  }

  observe(outcome: Outcome): void {
    // The URL (and its redirect target) must not come out again, also when resuming: it is
    // never queued again, and its queued copies go (the priority frontier drops them lazily).
    for (const url of new Set([outcome.action.url, outcome.finalUrl])) {
      this.queuedKey.set(url, Number.NEGATIVE_INFINITY);
      this.frontier.removeUrl(url);
    }
    for (const link of outcome.links) this.enqueue(link, outcome.action.url, outcome.probability);
  }

  stats(): StrategyStats {
    return { ...this.frontier.stats(), 'frontier/size': this.frontier.size };
  }

  private enqueue(link: DiscoveredLink, parentUrl: string | undefined, parentProbability: number): void {
    const previous = this.queuedKey.get(link.url);
    if (previous !== undefined && this.options.order !== 'best-first') return;
    const key = this.keyOf(parentProbability);
    if (previous !== undefined && previous <= key) return;
    this.queuedKey.set(link.url, key);
    const item: FrontierItem = {
      url: link.url,
      host: link.host,
      domain: link.domain,
      depth: link.depth,
      key,
    };
    if (parentUrl !== undefined) item.parentUrl = parentUrl;
    this.frontier.add(item);
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
