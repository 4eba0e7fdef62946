/**
 * What the crawl loop needs of a relevance model: batch probabilities for fetched pages (the
 * reward) and, for strategies that use it, for links from their anchor text and URL words (an
 * action feature). Every `RelevanceModel` of the relevance room satisfies it.
 */

export interface PageToJudge {
  url: string;
  title: string;
  text: string;
}

export interface AnchorToJudge {
  url: string;
  anchorText: string;
}

/** Gives P(relevant) in [0, 1] for each page; the reward is P >= the crawl's threshold. */
export interface PageJudge {
  readonly name: string;
  scorePages(pages: readonly PageToJudge[]): Promise<Float32Array>;
  /** P(relevant) of each link from its anchor text and URL words. */
  scoreAnchors(anchors: readonly AnchorToJudge[]): Promise<Float32Array>;
  /**
   * A judge that learns as the crawl runs takes the user's label of a page here (an answer to one
   * of the crawl's questions); the crawler then retrains nothing else on it.
   */
  learn?(page: PageToJudge, isRelevant: boolean): void;
}
