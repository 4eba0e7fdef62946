/** What the crawl loop needs of a relevance model: batch probabilities for fetched pages. */

export interface PageToJudge {
  url: string;
  title: string;
  text: string;
}

/** Gives P(relevant) in [0, 1] for each page; the reward is P >= the crawl's threshold. */
export interface PageJudge {
  readonly name: string;
  judge(pages: PageToJudge[]): Promise<Float32Array>;
}
