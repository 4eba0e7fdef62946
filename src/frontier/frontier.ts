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
import type { SampleInput, SampleTable } from './sample-table.js';

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

/**
 * The Frontier contract for samples kept as ids in a {@link SampleTable} (no object per sample):
 * the Tree-Frontier and the full frontier of TRES. The same operations as {@link Frontier}, on ids.
 */
export interface IndexedFrontier {
  /** The samples' columns (URL, host, domain, depth, parent, vector) by id. */
  readonly table: SampleTable;
  /** Samples waiting. */
  readonly size: number;
  /** Adds a sample with state-action vector `x` (copied; length `table.featureCount`); returns its id. */
  add(input: SampleInput, parent: number, x?: ArrayLike<number>): number;
  /** Removes every sample of `url`; returns how many. */
  removeUrl(url: string): number;
  /** Removes every sample of `domain`; returns how many. */
  purgeDomain(domain: string): number;
  /** The candidates of this step as ids (see {@link Frontier.draw}). */
  draw(ctx: DrawContext): number[];
  /** Removes the drawn sample the strategy chose. Returns false if it was not in the frontier. */
  take(id: number): boolean;
  /** Numbers under stable metric names (`frontier/size`, ...). */
  stats(): Record<string, number>;
}

/** {@link isReady} for a sample of a {@link SampleTable}. */
export function isIdReady(ctx: DrawContext, table: SampleTable, id: number): boolean {
  return ctx.isHostReady(table.host(id)) && ctx.isDomainOpen(table.domain(id));
}
