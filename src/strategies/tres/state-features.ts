/**
 * The state-action vector of TRES (journal section 2.4.1; arXiv section 4.2), in the order of the
 * authors' code:
 *
 * | # | feature                          | how                                                      |
 * |---|----------------------------------|----------------------------------------------------------|
 * | 0 | parent reward                    | reward of the page the link was found on                 |
 * | 1 | inverse distance to last relevant| 1/d, d = 1 if the parent is relevant, else parent's d + 1 |
 * | 2 | path relevance ratio             | relevant / all pages on the web path seed..parent         |
 * | 3 | keyword in URL                   | any (expanded) keyword in the URL words (the authors'     |
 * |   |                                  | code checked only the seed keywords: a bug, not copied)   |
 * | 4 | keyword in anchor                | any keyword in the anchor text                            |
 * | 5 | keyphrase in anchor              | any keyphrase in the anchor text                          |
 * | 6 | domain relevance ratio (hub)     | relevant / fetched pages of the link's domain; 0.5 unseen |
 * | 7 | unknown domain (hub)             | 1 if no page of the domain was fetched yet, else 0        |
 * | 8 | anchor relevance                 | classifier P(relevant) of anchor text + URL words         |
 *
 * Features 6 and 7 ("hub features") are dropped for TRES_NH, which leaves 7 features.
 * Optional bucketing (arXiv: "feature bucketing") rounds continuous features down to multiples
 * of 1/buckets; the authors' last code had it off, and so does the default here.
 */
import { type KeywordSet, tokenize } from '../../text/index.js';
import type { Outcome } from '../../types/index.js';

/** Where a link stands on its web path: what the parent page passes to its outlinks. */
export interface PathState {
  /** Reward of the parent page (0 or 1). */
  parentReward: number;
  /** d of the link: 1 if the parent is relevant, else the parent's own d + 1. */
  distance: number;
  /** Relevant pages on the path from the seed to the parent, parent included. */
  pathRelevant: number;
  /** Pages on that path, parent included. */
  pathLength: number;
}

/**
 * Path state of a seed's own link (an empty path). A relevant seed passes [1, 1, 1] to its
 * outlinks, as in the paper; an irrelevant one passes [0, 0, 0].
 */
export const SEED_LINK_STATE: PathState = {
  parentReward: 0,
  distance: Number.POSITIVE_INFINITY,
  pathRelevant: 0,
  pathLength: 0,
};

/** The path state a fetched page passes to its outlinks, from its own link's state and reward. */
export function childPathState(link: PathState, reward: number): PathState {
  return {
    parentReward: reward,
    distance: reward > 0 ? 1 : link.distance + 1,
    pathRelevant: link.pathRelevant + reward,
    pathLength: link.pathLength + 1,
  };
}

/** Counts of fetched and relevant pages per domain, for the hub features. */
export class DomainStats {
  private readonly fetched = new Map<string, number>();
  private readonly relevant = new Map<string, number>();

  record(domain: string, reward: number): void {
    this.fetched.set(domain, (this.fetched.get(domain) ?? 0) + 1);
    if (reward > 0) this.relevant.set(domain, (this.relevant.get(domain) ?? 0) + 1);
  }

  /** relevant / fetched of the domain; 0.5 if none fetched yet. */
  ratio(domain: string): number {
    const n = this.fetched.get(domain);
    return n === undefined ? 0.5 : (this.relevant.get(domain) ?? 0) / n;
  }

  isUnknown(domain: string): boolean {
    return !this.fetched.has(domain);
  }

  /** True once a relevant page of the domain was recorded. */
  hasRelevant(domain: string): boolean {
    return this.relevant.has(domain);
  }
}

export interface StateFeatureOptions {
  /** The topic's (expanded) keywords and its keyphrases. */
  keywords: KeywordSet;
  /** Include the two hub (domain) features: TRES (true) or TRES_NH (false). @default true */
  withDomainFeatures?: boolean;
  /** Round continuous features down to multiples of 1/buckets; false for none. @default false */
  buckets?: number | false;
}

/** A link to turn into a vector. */
export interface LinkToEncode {
  url: string;
  domain: string;
  anchorText: string;
  anchorProbability: number;
}

/** Builds state-action vectors. */
export class StateFeatures {
  /** Length of a vector: 9 with domain features, 7 without. */
  readonly size: number;
  private readonly keywords: KeywordSet;
  private readonly withDomain: boolean;
  private readonly buckets: number | false;

  constructor(options: StateFeatureOptions) {
    this.keywords = options.keywords;
    this.withDomain = options.withDomainFeatures ?? true;
    this.buckets = options.buckets ?? false;
    this.size = this.withDomain ? 9 : 7;
  }

  /** Index of the anchor probability (the last feature). */
  get anchorIndex(): number {
    return this.size - 1;
  }

  /** The vector of taking `link` from a page whose outlinks have path state `path`. */
  encode(path: PathState, link: LinkToEncode, domains: DomainStats): Float32Array {
    const x = new Float32Array(this.size);
    this.encodeInto(x, 0, path, link, domains);
    return x;
  }

  /** {@link StateFeatures.encode} written into `out[offset .. offset + size)`. */
  encodeInto(
    out: Float32Array,
    offset: number,
    path: PathState,
    link: LinkToEncode,
    domains: DomainStats,
  ): void {
    out[offset] = path.parentReward;
    out[offset + 1] = this.bucket(1 / path.distance);
    out[offset + 2] = this.bucket(path.pathRelevant / path.pathLength);
    out[offset + 3] = this.keywords.isInUrl(link.url) ? 1 : 0;
    const anchor = tokenize(link.anchorText);
    out[offset + 4] = this.keywords.isIn(anchor) ? 1 : 0;
    out[offset + 5] = this.keywords.hasKeyphrase(anchor) ? 1 : 0;
    if (this.withDomain) this.writeDomainFeatures(out, offset, link.domain, domains);
    out[offset + this.anchorIndex] = this.bucket(link.anchorProbability);
  }

  /**
   * The vector of a fetched seed (or a page whose link state is unknown, as on replay): a seed's
   * vector from the page's URL, domain, title and judged probability.
   */
  encodeFetchedSeed(outcome: Outcome, domains: DomainStats): Float32Array {
    const { action } = outcome;
    return this.encodeSeed(action.url, action.domain, outcome.title ?? '', outcome.probability, domains);
  }

  /**
   * The vector of a seed, as the paper initialises them (section 2.4.2): zero state features and
   * the action features of the seed URL itself (its title stands for the anchor text).
   */
  encodeSeed(
    url: string,
    domain: string,
    title: string,
    probability: number,
    domains: DomainStats,
  ): Float32Array {
    const zero: PathState = {
      parentReward: 0,
      distance: Number.POSITIVE_INFINITY,
      pathRelevant: 0,
      pathLength: 1,
    };
    return this.encode(zero, { url, domain, anchorText: title, anchorProbability: probability }, domains);
  }

  /** Rewrites the hub features of `x` from the current domain counts; true if they changed. */
  refreshDomainFeatures(x: Float32Array, domain: string, domains: DomainStats): boolean {
    return this.refreshDomainFeaturesAt(x, 0, domain, domains);
  }

  /** {@link StateFeatures.refreshDomainFeatures} of the vector at `x[offset ..]`. */
  refreshDomainFeaturesAt(x: Float32Array, offset: number, domain: string, domains: DomainStats): boolean {
    if (!this.withDomain) return false;
    const ratio = x[offset + 6];
    const unknown = x[offset + 7];
    this.writeDomainFeatures(x, offset, domain, domains);
    return x[offset + 6] !== ratio || x[offset + 7] !== unknown;
  }

  private writeDomainFeatures(x: Float32Array, offset: number, domain: string, domains: DomainStats): void {
    x[offset + 6] = this.bucket(domains.ratio(domain));
    x[offset + 7] = domains.isUnknown(domain) ? 1 : 0;
  }

  private bucket(value: number): number {
    if (this.buckets === false) return value;
    return Math.floor(value * this.buckets) / this.buckets;
  }
}

/**
 * The page's reward plus `bonus` when it is relevant and its domain has no relevant page in
 * `domains` yet: the first relevant page of each site earns more (TresConfig.newDomainBonus).
 */
export function withNewSiteBonus(
  reward: number,
  domain: string,
  domains: DomainStats,
  bonus: number,
): number {
  if (bonus === 0 || reward <= 0 || domains.hasRelevant(domain)) return reward;
  return reward + bonus;
}
