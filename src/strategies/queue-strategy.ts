/**
 * The plain strategies of the papers' comparisons, all on one per-host priority frontier:
 * - `bfs`: breadth-first, first discovered first fetched.
 * - `random`: a uniformly random frontier URL each step (the papers' Random baseline).
 * - `best-first`: priority of a link = relevance probability of the page it was found on
 *   (the baseline crawler of Chakrabarti et al. 2002, section 1; ACHE's default without a link
 *   classifier). A URL found again on a more relevant page moves up.
 */
import type { Rng } from '../common/rng.js';
import { type FrontierItem, HostQueueFrontier } from '../frontier/host-queue-frontier.js';
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
  private readonly frontier = new HostQueueFrontier();
  /** Best key a URL was queued with; a URL is queued again only with a better key. */
  private readonly queuedKey = new Map<string, number>();
  private sequence = 0;

  constructor(private readonly options: QueueStrategyOptions) {
    this.name = options.order;
  }

  seed(links: DiscoveredLink[]): void {
    for (const link of links) this.enqueue(link, undefined, 1);
  }

  next(ctx: SelectionContext): Action | undefined {
    const item = this.frontier.take(ctx);
    if (!item) return undefined;
    const { key: _key, ...action } = item;
    return action;
  }

  observe(outcome: Outcome): void {
    // Resuming: the page was fetched before the crash, so it must not come out again.
    // Its queued copies are dropped lazily by `take` through ctx.isFetched.
    this.queuedKey.set(outcome.action.url, Number.NEGATIVE_INFINITY);
    if (outcome.finalUrl !== outcome.action.url)
      this.queuedKey.set(outcome.finalUrl, Number.NEGATIVE_INFINITY);
    for (const link of outcome.links) this.enqueue(link, outcome.action.url, outcome.probability);
  }

  stats(): StrategyStats {
    return { 'frontier/size': this.frontier.size, 'frontier/hosts': this.frontier.hostCount };
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
        return this.options.rng.next();
      case 'best-first':
        // Higher probability first; equal probabilities in discovery order.
        return -parentProbability + this.sequence++ * 1e-12;
    }
  }
}
