/**
 * Options of the synthetic web generator, their defaults in one constant, and their checking.
 */
import { ConfigError } from '../../common/index.js';

/** Shape and content of a synthetic topical web. Shares are probabilities in [0, 1]. */
export interface SyntheticWebOptions {
  /** Seed of every random choice; the same options always give the same web, byte for byte. @default 1 */
  seed: string | number;
  /** Number of hosts (sites). @default 200 */
  hostCount: number;
  /** Number of pages over all hosts, host home pages (`/`) included; at least `hostCount`. @default 20_000 */
  pageCount: number;
  /** Topic names; the words of each name are that topic's keywords. At most 100. @default 8 topics */
  topics: string[];
  /** The topic whose pages are labelled relevant; must be one of `topics`. @default the first topic */
  relevantTopic: string;
  /** Mean number of distinct out-links per page, hubs included. @default 20 */
  meanOutDegree: number;
  /** Spread (sigma in log space) of the log-normal out-degree; larger means a heavier tail. @default 1 */
  outDegreeSigma: number;
  /** Cap on out-links per page (hubs included). @default 1000 */
  maxOutDegree: number;
  /** Share of pages that are hubs: many more out-links, mostly to other hosts. @default 0.005 */
  hubShare: number;
  /** How many times a regular page's mean out-degree a hub has. @default 10 */
  hubDegreeFactor: number;
  /** Share of a hub's links that stay on its host. @default 0.1 */
  hubShareWithinHost: number;
  /** Share of a regular page's links (to existing pages) that stay on its host. @default 0.8 */
  shareWithinHost: number;
  /** Share of a page's links (to existing pages) whose target has the page's topic. @default 0.8 */
  shareWithinTopic: number;
  /** Zipf exponent of host sizes (size of rank r proportional to 1/(r+1)^s); 0 gives equal hosts. @default 1 */
  hostSizeExponent: number;
  /** Share of hosts that mix 2 to 4 topics in comparable amounts. @default 0.2 */
  mixedHostShare: number;
  /** Share of a single-topic host's pages in its main topic (the rest in 1 or 2 others). @default 0.9 */
  hostPurity: number;
  /** Share of hosts that are one more subdomain (blog., docs., ...) of an earlier host's domain. @default 0.15 */
  subdomainShare: number;
  /** Links from a host's home page `/` to its entry pages. @default 5 */
  entryLinksPerHost: number;
  /** Share of links that point to a missing page (404) of an existing host. @default 0.01 */
  brokenLinkShare: number;
  /** Share of links that point to a host that does not exist. @default 0.005 */
  deadHostLinkShare: number;
  /** Mean number of words of page text. @default 250 */
  meanWordsPerPage: number;
  /** Share of page words drawn from the page topic's vocabulary (the rest mostly common words). @default 0.35 */
  topicWordShare: number;
  /** Share of pages whose text (and often title) holds their topic's keywords. @default 0.5 */
  keywordPageShare: number;
  /** Share of pages that mention another topic's keywords (false friends for keyword scorers). @default 0.05 */
  offTopicKeywordShare: number;
  /** Share of anchor texts that are generic or random instead of the target's topic words. @default 0.2 */
  anchorNoise: number;
  /** Pseudo-words per topic vocabulary. @default 1500 */
  vocabularySize: number;
  /** Pseudo-words in the vocabulary common to all topics (after a few English function words). @default 2000 */
  commonVocabularySize: number;
  /**
   * Real words to use as a topic's vocabulary instead of pseudo-words, by topic name (for models
   * that need words with embeddings). Words already taken by another topic are skipped.
   * @default {} (pseudo-words for every topic)
   */
  topicVocabularies: Record<string, string[]>;
}

/** Defaults of {@link SyntheticWebOptions}. */
export const SYNTHETIC_WEB_DEFAULTS: Readonly<SyntheticWebOptions> = Object.freeze({
  seed: 1,
  hostCount: 200,
  pageCount: 20_000,
  topics: [
    'computer hardware',
    'music',
    'statistics',
    'sports',
    'food',
    'astronomy',
    'chemistry',
    'gardening',
  ],
  relevantTopic: 'computer hardware',
  meanOutDegree: 20,
  outDegreeSigma: 1,
  maxOutDegree: 1000,
  hubShare: 0.005,
  hubDegreeFactor: 10,
  hubShareWithinHost: 0.1,
  shareWithinHost: 0.8,
  shareWithinTopic: 0.8,
  hostSizeExponent: 1,
  mixedHostShare: 0.2,
  hostPurity: 0.9,
  subdomainShare: 0.15,
  entryLinksPerHost: 5,
  brokenLinkShare: 0.01,
  deadHostLinkShare: 0.005,
  meanWordsPerPage: 250,
  topicWordShare: 0.35,
  keywordPageShare: 0.5,
  offTopicKeywordShare: 0.05,
  anchorNoise: 0.2,
  vocabularySize: 1500,
  commonVocabularySize: 2000,
  topicVocabularies: {},
});

const SHARES = [
  'hubShare',
  'hubShareWithinHost',
  'shareWithinHost',
  'shareWithinTopic',
  'mixedHostShare',
  'hostPurity',
  'subdomainShare',
  'brokenLinkShare',
  'deadHostLinkShare',
  'topicWordShare',
  'keywordPageShare',
  'offTopicKeywordShare',
  'anchorNoise',
] as const;

function fail(field: string, message: string): never {
  throw new ConfigError(`synthetic web: ${field} ${message}`, { context: { field } });
}

function checkInteger(
  o: SyntheticWebOptions,
  field: keyof SyntheticWebOptions,
  min: number,
  max: number,
): void {
  const value = o[field] as number;
  if (!Number.isInteger(value) || value < min || value > max)
    fail(field, `must be an integer in ${min}..${max}, got ${value}`);
}

/**
 * Fills in defaults and checks ranges. When `topics` is given without `relevantTopic`, the first
 * topic is the relevant one.
 * @throws ConfigError naming the field that is out of range or inconsistent.
 */
export function resolveSyntheticOptions(options: Partial<SyntheticWebOptions> = {}): SyntheticWebOptions {
  const o: SyntheticWebOptions = { ...SYNTHETIC_WEB_DEFAULTS, ...options };
  if (options.topics && options.relevantTopic === undefined) o.relevantTopic = options.topics[0] as string;
  o.topics = [...o.topics];
  o.topicVocabularies = { ...o.topicVocabularies };
  checkInteger(o, 'hostCount', 1, 10_000_000);
  checkInteger(o, 'pageCount', o.hostCount, 1_000_000_000);
  checkInteger(o, 'maxOutDegree', 1, 100_000);
  checkInteger(o, 'entryLinksPerHost', 0, 1000);
  checkInteger(o, 'meanWordsPerPage', 1, 100_000);
  checkInteger(o, 'vocabularySize', 10, 1_000_000);
  checkInteger(o, 'commonVocabularySize', 10, 1_000_000);
  for (const field of SHARES) {
    if (!(o[field] >= 0 && o[field] <= 1)) fail(field, `must be a share in [0, 1], got ${o[field]}`);
  }
  if (o.brokenLinkShare + o.deadHostLinkShare > 1)
    fail('brokenLinkShare', 'plus deadHostLinkShare must be <= 1');
  for (const field of ['meanOutDegree', 'hubDegreeFactor', 'outDegreeSigma', 'hostSizeExponent'] as const) {
    if (!(Number.isFinite(o[field]) && o[field] >= 0))
      fail(field, `must be a finite number >= 0, got ${o[field]}`);
  }
  if (o.meanOutDegree < 1) fail('meanOutDegree', `must be >= 1, got ${o.meanOutDegree}`);
  if (o.hubDegreeFactor < 1) fail('hubDegreeFactor', `must be >= 1, got ${o.hubDegreeFactor}`);
  if (o.topics.length < 1 || o.topics.length > 100)
    fail('topics', `must hold 1..100 names, got ${o.topics.length}`);
  if (new Set(o.topics).size !== o.topics.length) fail('topics', 'must not repeat a name');
  if (o.topics.some((t) => !/[a-z]/i.test(t))) fail('topics', 'names must hold at least one letter');
  if (!o.topics.includes(o.relevantTopic)) fail('relevantTopic', `'${o.relevantTopic}' is not one of topics`);
  for (const name of Object.keys(o.topicVocabularies)) {
    if (!o.topics.includes(name)) fail('topicVocabularies', `names unknown topic '${name}'`);
  }
  return o;
}
