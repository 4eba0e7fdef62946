/**
 * Han, Wuillemin and Senellart's shared state-action representation ("Focused Crawling through
 * Reinforcement Learning", ICWE 2018, section 4), as the TRES journal summarises it (section 3.2,
 * "Async"; related work): path statistics of the page a link was found on, plus a
 * cosine-similarity relevance of texts to the topic; no keyword features, no classifier.
 * Han et al. "manually discretized the state-action space into buckets according to value
 * ranges" (TRES arXiv, related work), and approximate Q linearly over that discretisation.
 *
 * Han's own text was not at hand here; the list below is our reconstruction from those two
 * descriptions, each feature one of the kinds they name:
 *
 * | # | feature (state: the parent page p; action: the link) | buckets                      |
 * |---|-------------------------------------------------------|------------------------------|
 * | 0 | relevance of p: cos(text of p, topic)                 | {@link RELEVANCE_EDGES} (6)   |
 * | 1 | relevance change: cos(p) - cos(parent of p)           | down / flat / up (3)          |
 * | 2 | distance from p to the last relevant page on its path | 0, 1, 2, 3, >= 4 (5)          |
 * | 3 | share of relevant pages on the path seed..p           | fifths (5)                    |
 * | 4 | relevance of the anchor text: cos(anchor, topic)      | {@link RELEVANCE_EDGES} (6)   |
 * | 5 | relevance of the URL words: cos(URL words, topic)     | {@link RELEVANCE_EDGES} (6)   |
 * | 6 | relevance of the text around the link                 | {@link RELEVANCE_EDGES} (6)   |
 *
 * "Relevant" in features 2-3 is the crawl's reward (the judge's verdict on p). The topic vector
 * is the topic's keywords, each with weight 1; a text is its bag of words (term counts). Each
 * feature becomes a one-hot block, so a state-action is 7 active indices out of
 * {@link HAN_FEATURE_SIZE}, and the linear Q is a sum of 7 weights plus a bias.
 */
import { isStopword, type KeywordSet, tokenize, urlTokens } from '../../text/index.js';
import type { DiscoveredLink } from '../../types/index.js';

/**
 * Upper edges of the relevance buckets, for cosines in [0, 1]: 0 exactly, then (0, 0.05],
 * (0.05, 0.1], (0.1, 0.2], (0.2, 0.4], (0.4, 1]. Finer near 0 because a page's cosine to a
 * few keywords is small (a 300-word page with three keyword hits scores about 0.1) while a short
 * anchor with one keyword scores 0.3 to 0.7.
 */
export const RELEVANCE_EDGES = [0, 0.05, 0.1, 0.2, 0.4] as const;
/** A change of cosine within +-this is "flat". */
export const RELEVANCE_CHANGE_DEADBAND = 0.02;
/** Distances from the last relevant page at or above this share one bucket. */
export const MAX_DISTANCE_BUCKET = 4;
const PATH_RATIO_BUCKETS = 5;

const RELEVANCE_BUCKETS = RELEVANCE_EDGES.length + 1;
/** Size of each one-hot block, in feature order. */
const BLOCKS = [
  RELEVANCE_BUCKETS,
  3,
  MAX_DISTANCE_BUCKET + 1,
  PATH_RATIO_BUCKETS,
  RELEVANCE_BUCKETS,
  RELEVANCE_BUCKETS,
  RELEVANCE_BUCKETS,
] as const;
const OFFSETS = BLOCKS.map((_, i) => BLOCKS.slice(0, i).reduce((a, b) => a + b, 0));
/** Number of one-hot features (the bias is not one of them). */
export const HAN_FEATURE_SIZE = BLOCKS.reduce((a, b) => a + b, 0);
/** Active features of every state-action vector (one per block). */
export const HAN_ACTIVE_FEATURES = BLOCKS.length;

/** What a fetched page passes to its outlinks (features 0-3). */
export interface HanPageState {
  /** cos(text, topic) of the page. */
  relevance: number;
  /** cos of the page's parent (0 for a seed). */
  parentRelevance: number;
  /** 0 if the page is relevant, else its parent's distance + 1 (seeds: 0 or 1). */
  distance: number;
  /** Relevant pages on the path from the seed to this page, this page included. */
  pathRelevant: number;
  /** Pages on that path, this page included. */
  pathLength: number;
}

/** The state of a page reached from `parent` (undefined for a seed), with its own reward and cosine. */
export function pageStateOf(
  parent: HanPageState | undefined,
  reward: number,
  relevance: number,
): HanPageState {
  const isRelevant = reward > 0;
  return {
    relevance,
    parentRelevance: parent?.relevance ?? 0,
    distance: isRelevant ? 0 : (parent?.distance ?? 0) + 1,
    pathRelevant: (parent?.pathRelevant ?? 0) + (isRelevant ? 1 : 0),
    pathLength: (parent?.pathLength ?? 0) + 1,
  };
}

/**
 * The state a seed link is chosen from: an empty path (Han et al. start from the seeds with no
 * history). Gives bucket 0 of features 0-1, distance 0 and ratio 0.
 */
export const SEED_PARENT_STATE: HanPageState = {
  relevance: 0,
  parentRelevance: 0,
  distance: 0,
  pathRelevant: 0,
  pathLength: 0,
};

/** Bucket of a cosine in [0, 1]. */
export function relevanceBucket(cosine: number): number {
  let b = 0;
  while (b < RELEVANCE_EDGES.length && cosine > (RELEVANCE_EDGES[b] as number)) b++;
  return b;
}

/** Cosine similarity of texts to the topic's keywords (every keyword weight 1). */
export class TopicCosine {
  private readonly keywordNorm: number;

  constructor(private readonly keywords: KeywordSet) {
    this.keywordNorm = Math.sqrt(keywords.size);
  }

  /** cos(bag of `tokens`, topic) in [0, 1]; 0 for no tokens or no keywords. */
  of(tokens: readonly string[]): number {
    if (tokens.length === 0 || this.keywordNorm === 0) return 0;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    let dot = 0;
    let norm2 = 0;
    for (const [token, n] of counts) {
      norm2 += n * n;
      if (this.keywords.has(token)) dot += n;
    }
    return dot / (Math.sqrt(norm2) * this.keywordNorm);
  }

  /** cos of a page from its title and text. */
  ofPage(title: string, text: string): number {
    return this.of(tokenize(title.length > 0 ? `${title} ${text}` : text));
  }

  /** The three action cosines of a link: anchor, URL words, text around (DOM offset != 0). */
  ofLink(link: Pick<DiscoveredLink, 'url' | 'anchorText' | 'context'>): [number, number, number] {
    const around: string[] = [];
    const context = link.context;
    if (context) {
      const { tokens, offsets } = context; // getters on a parsed page's context: read once
      tokens.forEach((t, i) => {
        if (offsets[i] !== 0 && t.length >= 2 && !isStopword(t)) around.push(t);
      });
    }
    return [this.of(tokenize(link.anchorText)), this.of(urlTokens(link.url)), this.of(around)];
  }
}

/** The 7 active indices of a state-action, in block order (`[features]`, values < HAN_FEATURE_SIZE). */
export function encodeHan(state: HanPageState, action: readonly [number, number, number]): Uint8Array {
  const change = state.relevance - state.parentRelevance;
  const ratio = state.pathLength === 0 ? 0 : state.pathRelevant / state.pathLength;
  const buckets = [
    relevanceBucket(state.relevance),
    change < -RELEVANCE_CHANGE_DEADBAND ? 0 : change > RELEVANCE_CHANGE_DEADBAND ? 2 : 1,
    Math.min(state.distance, MAX_DISTANCE_BUCKET),
    Math.min(Math.floor(ratio * PATH_RATIO_BUCKETS), PATH_RATIO_BUCKETS - 1),
    relevanceBucket(action[0]),
    relevanceBucket(action[1]),
    relevanceBucket(action[2]),
  ];
  return Uint8Array.from(buckets, (b, i) => (OFFSETS[i] as number) + b);
}
