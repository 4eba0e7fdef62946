/**
 * The one Frontier contract every strategy builds on ({@link IndexedFrontier}): a strategy is a
 * frontier (which URLs wait, and which of them are the candidates of a step), a chooser (which
 * candidate to take) and, optionally, a learner (what `observe` updates). Implementations:
 * - `IndexedPriorityFrontier`: one global order of scored samples (BFS, best-first, Han's async
 *   crawler, ACHE, the apprentice, RLwCS, Lim's crawler, TRES-async);
 * - `IndexedRandomFrontier`: a uniformly random ready sample (the Random baseline);
 * - `TreeFrontier` (strategies/tres/, with the rest of TRES): TRES's online regression tree;
 *   one representative per non-empty leaf;
 * - `FullIndexedFrontier`: every ready sample (the synchronous method's exact argmax).
 * (test-priority-frontier.ts keeps an object-per-sample priority frontier as the reference the
 * indexed one is tested against.)
 */
import type { SelectionContext } from '../types/index.js';
import type { SampleInput, SampleTable } from './sample-table.js';

/** The questions a frontier asks the crawl loop while drawing candidates. */
export type DrawContext = Pick<
  SelectionContext,
  'isHostReady' | 'isDomainOpen' | 'isDomainClosed' | 'isFetched'
>;

/**
 * The Frontier contract: samples kept as ids in a {@link SampleTable} (no object per sample).
 * `draw` returns the candidates of this step: ids whose host may be fetched now and whose domain
 * is open, after dropping stale ones (URL fetched, domain closed); they stay until `take`.
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
  /** The candidates of this step as ids; empty when nothing can be fetched now. */
  draw(ctx: DrawContext): number[];
  /** Removes the drawn sample the strategy chose. Returns false if it was not in the frontier. */
  take(id: number): boolean;
  /** Numbers under stable metric names (`frontier/size`, ...). */
  stats(): Record<string, number>;
}

/** True if sample `id` may be fetched now; false if it must wait (host busy, domain full for now). */
export function isIdReady(ctx: DrawContext, table: SampleTable, id: number): boolean {
  return ctx.isHostReady(table.host(id)) && ctx.isDomainOpen(table.domain(id));
}
