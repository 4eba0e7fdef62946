/**
 * Every hyperparameter of TRES in one typed config, as CleanRL keeps `Args` at the top of
 * `dqn.py`: the Double DQN agent, the Tree-Frontier, the warm-up and the state-action features.
 * The defaults are the authors' reference values (../shared/reference/tres-reference-code.md)
 * except the warm-up policy (`warmupPolicy`, measured); a run writes its resolved config into
 * the crawl store (meta `strategyConfig`).
 */

import { ConfigError } from '../../common/index.js';
import { type DdqnConfig, resolveDdqnConfig } from './ddqn-config.js';
import { DEFAULT_TREE_FRONTIER_OPTIONS } from './tree-frontier.js';
import { resolveTreeFrontierOptions } from './tree-types.js';

/** Which member of the TRES family: the paper's method and the baselines sharing its machinery. */
export type TresVariant = 'tres' | 'tres-nh' | 'tree-random' | 'synchronous' | 'tres-async';

/** Tree-Frontier settings (see `TreeFrontierOptions`). */
export interface TresTreeConfig {
  /** A leaf at this depth never splits. @default 18 */
  maxDepth: number;
  /** Experiences a leaf needs before it tries a split. @default 5 */
  minSamplesToSplit: number;
  /** Each side of a split needs this fraction of the leaf's experiences; 0 turns it off. @default 0 */
  minSideFraction: number;
  /** Minimum experiences on each side of a split. @default 1 */
  minSamplesPerSide: number;
  /** Rounds of drawing again after purging stale representatives. @default 8 */
  maxDrawRounds: number;
}

export interface TresConfig {
  variant: TresVariant;
  /** The Double DQN agent; `featureCount` follows from `withDomainFeatures`. */
  ddqn: Readonly<DdqnConfig>;
  tree: Readonly<TresTreeConfig>;
  /**
   * Steps of random choice among the representatives before the agent chooses (the agent's own
   * warm-up: training starts at the same step). @default ddqn.warmupSteps (300)
   */
  warmupSteps: number;
  /**
   * How the warm-up chooses among the representatives. `'random'`: a random leaf's representative,
   * as the authors' code does. `'prior'`: the representative whose link looks most relevant
   * before any learning (parent page's reward + the anchor classifier's probability; ties by
   * draw), best-first among the representatives. Double DQN learns off-policy, so either fills
   * the replay buffer; the prior spends the warm-up's fetches on likelier pages, and the agent
   * learns from more relevant experiences. Measured paired by seed on the five DocWeb topics and
   * the generated web (results/ablation-prior-*): harvest rate at no limit +11.2 (hardware),
   * +2.8 (typesetting), ties elsewhere; at domain limit 10 two wins, two ties and one loss of 0.2
   * points (programming languages, two seeds). A departure from the authors' code, which has no
   * other exploration than this warm-up and the random representative of each leaf (which stays).
   * @default 'prior'
   */
  warmupPolicy: 'random' | 'prior';
  /**
   * Intrinsic reward for a new relevant site: a relevant page on a domain with no relevant page
   * before earns `1 + newDomainBonus` instead of 1 (the papers' future work, journal section 5:
   * "an intrinsic reward, aiming to enhance the agent's exploration for visiting a larger number
   * of relevant domains"). Only the agent and the Tree-Frontier's regression see it; harvest rate,
   * path features and hub features count the page's own reward. 0 is the paper's binary reward.
   * @default 0
   */
  newDomainBonus: number;
  /**
   * A new-site bonus that applies only while the crawl has a domain limit b (the user asked for
   * many relevant sites): added to `newDomainBonus` then, 0 without a limit, so that the crawl
   * without a limit keeps the paper's reward and its harvest rate. On a resume the replayed
   * pages count without it (the limit is known from the first step after the replay).
   * @default 0
   */
  limitSiteBonus: number;
  /**
   * Exploration after the warm-up: with this probability the step takes a uniformly random
   * candidate (a random leaf's representative; for `synchronous` a random frontier sample)
   * instead of the one of highest Q. The authors' code has none (its only exploration is the
   * warm-up and the random representative of each leaf): this adds exploration, to measure it.
   * Draws from the strategy's seeded stream only when above 0, so 0 repeats earlier runs.
   * @default 0
   */
  epsilon: number;
  /**
   * What feature 0 ("parent reward") holds: `'reward'`, the parent page's 0/1 reward (the paper);
   * `'probability'`, the judge's P(relevant) of the parent page, which keeps apart the pages just
   * under and far under the threshold (what best-first ranks by). The path features (distance to
   * the last relevant page, path relevance ratio) count rewards either way.
   * @default 'reward'
   */
  parentFeature: 'reward' | 'probability';
  /** Features 6 and 7 (domain relevance ratio, unknown domain); false for TRES_NH. @default true */
  withDomainFeatures: boolean;
  /** Feature bucketing (arXiv section 4.2) into this many buckets; `false`: off, as the authors' last code. @default false */
  buckets: number | false;
}

/** What a strategy spec or a caller may override. */
export interface TresOverrides {
  ddqn?: Partial<DdqnConfig>;
  tree?: Partial<TresTreeConfig>;
  warmupSteps?: number;
  warmupPolicy?: 'random' | 'prior';
  newDomainBonus?: number;
  limitSiteBonus?: number;
  epsilon?: number;
  parentFeature?: 'reward' | 'probability';
  buckets?: number | false;
}

/** Features with and without the two hub features (journal section 2.4.1). */
const FEATURES_WITH_HUB = 9;
const FEATURES_WITHOUT_HUB = 7;

/**
 * The resolved config of a variant: defaults, then `overrides`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveTresConfig(variant: TresVariant, overrides: TresOverrides = {}): Readonly<TresConfig> {
  const withDomainFeatures = variant !== 'tres-nh';
  const featureCount = withDomainFeatures ? FEATURES_WITH_HUB : FEATURES_WITHOUT_HUB;
  const ddqn = resolveDdqnConfig({ ...overrides.ddqn, featureCount });
  const { featureCount: _, ...tree } = resolveTreeFrontierOptions({
    ...DEFAULT_TREE_FRONTIER_OPTIONS,
    ...overrides.tree,
    featureCount,
  });
  const warmupSteps = overrides.warmupSteps ?? ddqn.warmupSteps;
  if (!Number.isInteger(warmupSteps) || warmupSteps < 0) {
    throw new ConfigError(`tres config: warmupSteps must be an integer >= 0, got ${warmupSteps}`, {
      context: { field: 'warmupSteps' },
    });
  }
  const warmupPolicy = overrides.warmupPolicy ?? 'prior';
  if (warmupPolicy !== 'random' && warmupPolicy !== 'prior') {
    throw new ConfigError(`tres config: warmupPolicy must be 'random' or 'prior', got ${warmupPolicy}`, {
      context: { field: 'warmupPolicy' },
    });
  }
  const newDomainBonus = overrides.newDomainBonus ?? 0;
  if (!(Number.isFinite(newDomainBonus) && newDomainBonus >= 0)) {
    throw new ConfigError(`tres config: newDomainBonus must be a number >= 0, got ${newDomainBonus}`, {
      context: { field: 'newDomainBonus' },
    });
  }
  const limitSiteBonus = overrides.limitSiteBonus ?? 0;
  if (!(Number.isFinite(limitSiteBonus) && limitSiteBonus >= 0)) {
    throw new ConfigError(`tres config: limitSiteBonus must be a number >= 0, got ${limitSiteBonus}`, {
      context: { field: 'limitSiteBonus' },
    });
  }
  const epsilon = overrides.epsilon ?? 0;
  if (!(epsilon >= 0 && epsilon <= 1)) {
    throw new ConfigError(`tres config: epsilon must be a number from 0 to 1, got ${epsilon}`, {
      context: { field: 'epsilon' },
    });
  }
  const parentFeature = overrides.parentFeature ?? 'reward';
  if (parentFeature !== 'reward' && parentFeature !== 'probability') {
    throw new ConfigError(
      `tres config: parentFeature must be 'reward' or 'probability', got ${parentFeature}`,
      {
        context: { field: 'parentFeature' },
      },
    );
  }
  const buckets = overrides.buckets ?? false;
  if (buckets !== false && !(Number.isInteger(buckets) && buckets >= 2)) {
    throw new ConfigError(`tres config: buckets must be an integer >= 2 or false, got ${buckets}`, {
      context: { field: 'buckets' },
    });
  }
  return Object.freeze({
    variant,
    ddqn,
    tree: Object.freeze(tree),
    warmupSteps,
    warmupPolicy,
    newDomainBonus,
    limitSiteBonus,
    epsilon,
    parentFeature,
    withDomainFeatures,
    buckets,
  });
}
