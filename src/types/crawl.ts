/**
 * The crawl vocabulary every room shares (Crawlee keeps @crawlee/types at the bottom the same
 * way): a discovered link, the action a strategy chooses, the outcome the loop reports, and what
 * the loop lets a strategy choose from. `frontier/`, `store/`, `strategies/` and `crawl/` import
 * it from here, so no room below `strategies/` imports upward.
 */

/** A link found on a fetched page (or a seed), already normalised and filtered by the loop. */
export interface DiscoveredLink {
  /** Normalised absolute URL. */
  url: string;
  host: string;
  /** Registrable domain (or host, in host mode): the "web site" of the papers. */
  domain: string;
  /** Visible anchor text ('' for seeds). */
  anchorText: string;
  /** Tokens around the link with DOM offsets, when the parser was asked for them. */
  context?: LinkContext;
  /** Crawl depth the linked page would have (seeds are 0). */
  depth: number;
  /** P(relevant) of the link from its anchor text and URL words, when the strategy asked for it. */
  anchorProbability?: number;
}

/** The words around a link, each with its DOM offset (0 inside the anchor; see html/link-context.ts). */
export interface LinkContext {
  /**
   * Lowercased tokens near the link, in document order. Read-only: a context the parser made
   * builds them (and `offsets`) on first read from `source`, and has no setter.
   */
  readonly tokens: string[];
  /**
   * DOM offset of each token, same length as `tokens`: 0 for tokens inside the anchor, negative
   * for text before it, positive for text after it, |offset| <= dMax (section 3.2 of the
   * apprentice's paper).
   */
  readonly offsets: Int8Array;
  /**
   * Where the tokens came from, when the parser knows: the page's words (one array per parsed
   * page, never changed after the parse), shared by every link of the page, and the link's runs
   * of them as [start, end, offset] triples. Readers that handle many links of one page use it
   * to do per-page work once (`FieldWords` interns each page word once). JSON leaves it out, and
   * `tokens` / `offsets` always hold the same words. A parsed context is the parser's
   * `LazyLinkContext`, whose accessors are its prototype's: JSON gives `{ tokens, offsets }`,
   * spreads and structured clones give `{}`, so read `tokens` and `offsets` to copy one.
   */
  readonly source?: LinkContextSource;
}

/**
 * The part of a link's context a reader needs: the `leaves` leaves nearest the anchor on each
 * side (the DOM offsets 1..leaves), and of each leaf the `words` words nearest the anchor.
 */
export interface LinkContextWindow {
  leaves: number;
  words: number;
}

/** See {@link LinkContext.source}. */
export interface LinkContextSource {
  readonly words: readonly string[];
  readonly spans: readonly number[];
}

/** What a strategy chose: one URL to fetch, with whatever the strategy wants back in `observe`. */
export interface Action {
  url: string;
  host: string;
  domain: string;
  depth: number;
  /** URL of the page the link was found on; undefined for seeds. */
  parentUrl?: string;
  /** Opaque per-action data the strategy attached (e.g. the state-action vector). */
  data?: unknown;
}

/** What the crawl loop tells the strategy about a finished action. */
export interface Outcome {
  action: Action;
  /** Final URL after redirects (equals action.url if none). */
  finalUrl: string;
  /** True if a page was fetched and parsed (a 2xx HTML response). */
  isPage: boolean;
  /** Reward of the MDP: 1 if the page was judged relevant, else 0 (0 for failures). */
  reward: number;
  /** Relevance probability of the page in [0, 1] (0 for failures). */
  probability: number;
  /** Page title and text, when a page was fetched. Strategies must not keep them. */
  title?: string;
  text?: string;
  /** New outlinks of the page, normalised, filtered, not yet fetched by the loop. */
  links: DiscoveredLink[];
  /** Error code when the fetch failed (see `TresError.code`). */
  errorCode?: string;
  /** True when the loop replays a stored outcome while resuming a crawl (no fetch happened). */
  isReplay?: boolean;
  /**
   * True on a replayed outcome that the restored checkpoint has already learned from (see
   * `Strategy.restore`): rebuild the frontier and counts from it, learn nothing.
   */
  isLearned?: boolean;
  /** True when the page copies a page fetched before (reward 0; no links for an exact copy). */
  isDuplicate?: boolean;
  /**
   * True when the loop holds the page's links back, its frontier being over the crawl's bound:
   * `links` is empty now, and `Strategy.queueLinks` brings them later with this page's outcome.
   */
  areLinksHeld?: boolean;
}

/** What the loop lets the strategy choose from right now. */
export interface SelectionContext {
  /** True if the host may be fetched now (politeness delay passed, no fetch in flight). */
  isHostReady(host: string): boolean;
  /** True if the domain is below its page limit b counting fetches in flight (may reopen). */
  isDomainOpen(domain: string): boolean;
  /** True if the domain's fetched pages reached its limit b: closed for good, purge its URLs. */
  isDomainClosed(domain: string): boolean;
  /** True if the URL was already fetched (or is in flight); such URLs must not be returned. */
  isFetched(url: string): boolean;
  /** Pages fetched so far in this crawl (the step t of the MDP). */
  step: number;
  /**
   * The page limit b per domain at this step (it falls over the crawl under 5_2); absent or
   * Infinity: no limit. A strategy may read it to know what the user asked for.
   */
  domainLimit?: number;
}
