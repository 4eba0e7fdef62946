/**
 * The one Frontier contract every strategy builds on: a strategy is a frontier (which URLs wait,
 * and which of them are the candidates of a step), a chooser (which candidate to take) and,
 * optionally, a learner (what `observe` updates). Four frontiers implement it:
 * - {@link PriorityFrontier}: per-host priority queues behind one global order; one candidate,
 *   the best ready one (BFS, best-first, Han's async crawler, ACHE, the apprentice, ...);
 * - `TreeFrontier`: TRES's online regression tree; one representative per non-empty leaf;
 * - {@link FullFrontier}: every ready sample (the synchronous method's exact argmax);
 * - {@link RandomFrontier}: one uniformly random ready sample (the Random baseline).
 */
import type { SelectionContext } from '../types/index.js';

/** What every frontier holds: a URL reachable by one link. Several samples may share a URL. */
export interface FrontierSample {
  /** Normalised URL. */
  url: string;
  host: string;
  /** Registrable domain (or host, in host mode): the unit of the page limit b. */
  domain: string;
}

/** The questions a frontier asks the crawl loop while drawing candidates. */
export type DrawContext = Pick<
  SelectionContext,
  'isHostReady' | 'isDomainOpen' | 'isDomainClosed' | 'isFetched'
>;

export interface Frontier<S extends FrontierSample> {
  /** Samples waiting (a frontier that drops stale samples lazily may count some of them). */
  readonly size: number;
  /** Adds a sample. */
  add(sample: S): void;
  /**
   * Removes every sample of `url` (it was fetched, through this sample or another); returns how
   * many were removed. A lazy frontier may drop them at `draw` instead and return 0.
   */
  removeUrl(url: string): number;
  /** Removes every sample of `domain` (closed for good at its page limit b); returns how many. */
  purgeDomain(domain: string): number;
  /**
   * The candidates of this step: samples whose host may be fetched now (`isHostReady`) and whose
   * domain is open, after dropping stale ones (URL fetched, domain closed). They stay in the
   * frontier until {@link Frontier.take}. Empty when nothing can be fetched now.
   */
  draw(ctx: DrawContext): S[];
  /** Removes the drawn sample the strategy chose. Returns false if it was not in the frontier. */
  take(sample: S): boolean;
  /** Numbers under stable metric names (`frontier/size`, ...). */
  stats(): Record<string, number>;
}

/** True if a sample may be fetched now; false if it must wait (host busy, domain full for now). */
export function isReady(ctx: DrawContext, sample: FrontierSample): boolean {
  return ctx.isHostReady(sample.host) && ctx.isDomainOpen(sample.domain);
}
