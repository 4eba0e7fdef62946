/**
 * The `Strategy` interface: the MDP of the TRES papers seen from the crawl loop.
 * `next` chooses an action (a URL) from the frontier; `observe` is the transition (the fetched
 * page, its reward and its new outlinks). Every crawler of the papers and every baseline
 * implements it, so all can be compared on the same web in the same loop.
 */
import type { Action, DiscoveredLink, LinkContextWindow, Outcome, SelectionContext } from '../types/index.js';

/** Numbers every strategy reports; the keys are the stable metric names. */
export interface StrategyStats {
  /**
   * URLs (or samples) waiting in the frontier, neither drawn nor observed. Samples of fetched URLs
   * a frontier drops lazily do not count: a resume's replay observes every fetched URL without
   * drawing it, and must start with the figure the stopped crawl ended with. Also the loop's
   * test of an empty frontier.
   */
  'frontier/size': number;
  [metric: string]: number;
}

export interface Strategy {
  /** Short name used on the command line and in reports (`bfs`, `tres`, ...). */
  readonly name: string;
  /** True if the loop must score each new link's anchor text (`DiscoveredLink.anchorProbability`). */
  readonly needsAnchorScores?: boolean;
  /** True if the loop must keep link context tokens (`DiscoveredLink.context`). */
  readonly needsLinkContext?: boolean;
  /**
   * The part of each link's context the strategy reads, when `needsLinkContext`: the parser then
   * keeps only it (less to extract, store and read back). Absent: the parser's whole window (5
   * leaves a side, 32 words a leaf).
   */
  readonly linkContextWindow?: Readonly<LinkContextWindow>;
  /**
   * Every hyperparameter in effect (JSON-serialisable), written into the crawl store as meta
   * `strategyConfig` so that a run can be read back and repeated.
   */
  readonly config?: unknown;
  /**
   * Loads what the strategy needs before it starts (Lim's word vectors); the crawl loop awaits it
   * once, before `seed`. Absent when there is nothing to load.
   */
  prepare?(): Promise<void>;
  /** Adds the seed URLs to the frontier. Called once before the first `next`. */
  seed(links: DiscoveredLink[]): void;
  /**
   * Chooses the next URL to fetch among those allowed by `ctx`, removing it from the frontier,
   * or returns undefined if no URL can be fetched now (all hosts busy, or the frontier is empty).
   */
  next(ctx: SelectionContext): Action | undefined;
  /** The transition: learns from a finished action and adds its new links to the frontier. */
  observe(outcome: Outcome): void;
  /**
   * Adds the links of a page `observe` has already had without them to the frontier, valued as
   * `observe` would value them now; the page is neither learned from nor counted again. The
   * crawl loop holds a page's links back while the frontier is over the crawl's bound
   * (`maxFrontierUrls`) and hands them over here once it has room (crawl/frontier-spill.ts).
   * `outcome` is the page as the store gives it back (as a resume's replay: no action data, no
   * text), with only the links to add: none fetched, in flight or waiting for a retry; some may
   * be queued already; none at all when every one is known by then (the call still comes, once
   * for each page observed with `areLinksHeld`, so the strategy may let go of what it kept for
   * the page). Absent: the loop never holds links back, whatever the bound.
   */
  queueLinks?(outcome: Outcome): void;
  /**
   * The order in which the loop hands held pages' links to `queueLinks`: `fetched`, the order the
   * pages were fetched (a first-in first-out frontier keeps its order), or `probability`, the
   * page judged most probably relevant first, ties in fetch order (for a frontier that values a
   * link by its page's relevance). @default 'fetched'
   */
  readonly heldLinksOrder?: 'fetched' | 'probability';
  /**
   * Called with a page's outcome just before the loop records it and calls `observe` with it,
   * when link contexts are kept for the strategy alone (not `withLinkContext`): deletes the
   * `context` of each link whose context that `observe` will not read (a link it passes over),
   * so that the store keeps none for it. A context is most of a stored page's size. The links are
   * the ones the store records. A resume's replay hands them back as stored: a link the replay
   * values where the live crawl passed over it comes without its context. Absent: every context
   * the parser kept is stored.
   */
  dropUnreadContexts?(outcome: Outcome): void;
  /**
   * What the strategy's link model expected of a fetched action's page, as P(relevant) in
   * [0, 1], or undefined when it has no such estimate. The loop reads it when the crawl asks its
   * user questions (a page the judge and the link model disagree on is worth asking about),
   * after the fetch and before `observe`. Absent: no estimate.
   */
  linkProbability?(action: Action): number | undefined;
  /** Current numbers for progress lines, events and benchmarks. */
  stats(): StrategyStats;
  /**
   * What the strategy has learned so far (weights, optimiser state, counters, random streams,
   * vocabularies, replay buffers), for a resume: a JSON-serialisable value whose typed arrays
   * are kept as they are (see `store/checkpoint-codec.ts`). Not the frontier, nor what the
   * replay of stored pages rebuilds (counts per site, path states): those come back by replay.
   * The crawl loop calls it when every recorded page has been observed, and stores the value in
   * crawl.sqlite with the id of the last such page. Absent: the strategy learns nothing that a
   * replay could not rebuild.
   */
  checkpoint?(): unknown;
  /**
   * Loads a value {@link Strategy.checkpoint} returned, on a fresh strategy made with the same
   * name and config, before `seed` and before the replay; replayed outcomes of the pages it
   * reflects then come with `isLearned` (rebuild the frontier from them, do not learn again).
   * @throws ConfigError if the value does not fit this strategy (the loop then starts over).
   */
  restore?(checkpoint: unknown): void;
  /**
   * Everything the strategy holds (what `checkpoint` stores, the frontier, and all that the
   * replay of stored pages would rebuild), for a resume that replays only the pages recorded
   * after it: a JSON-serialisable value whose typed arrays are kept as they are. `taken`: the
   * actions `next` returned whose outcomes `observe` has not had yet (in flight, waiting for a
   * retry); the snapshot holds them as queued, so that those never recorded are fetched after the
   * resume. The crawl loop calls it, as `checkpoint`, when every recorded page has been observed,
   * far less often (it is large), and keeps it beside the store with the id of the last page.
   * Absent: a resume replays every stored page.
   */
  frontierSnapshot?(taken: readonly Action[]): unknown;
  /**
   * Loads a value {@link Strategy.frontierSnapshot} returned, on a fresh strategy made with the
   * same name and config, before `seed`, instead of `restore`; the replay then gives only the
   * pages recorded after it, to be learned from as `observe` learns from a fetched page.
   * @throws ConfigError if the value does not fit this strategy (the loop then replays every page).
   */
  restoreFrontier?(snapshot: unknown): void;
}
