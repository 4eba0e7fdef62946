/**
 * Every hyperparameter of RLwCS (Partalas, Paliouras and Vlahavas, ECAI 2008) and of its SVM
 * baseline in one typed config; a run writes it into the crawl store (meta `strategyConfig`).
 * The paper gives the classifiers' settings (section 3) but not those of Q(lambda); ours are
 * the usual values of Sutton and Barto's examples.
 */
import { ConfigError } from '../../common/index.js';
import { booleanSetting, checkSettings, numberOrOffSetting, numberSetting } from '../../config/index.js';

/** `rlwcs`: Q(lambda) picks the classifier per page; `svm-links`: always the SVM (the paper's baseline). */
export type RlwcsVariant = 'rlwcs' | 'svm-links';

export interface RlwcsConfig {
  variant: RlwcsVariant;
  /**
   * true: Q(lambda) learns which classifier to use; false: the choice does not learn, each
   * page's classifier is drawn uniformly at random (what the untrained agent, all weights 0, does
   * once its ties are broken at random). The classifiers are trained either way. @default true
   */
  isLearning: boolean;
  /**
   * Pages fetched before the pool is first trained on them (the paper trains on a labelled
   * topic collection before crawling; a crawl has only its own pages, judged by the crawl's
   * judge). Until then outlinks get their page's relevance (best-first). @default 100
   */
  trainAfterPages: number;
  /**
   * Retrain the pool on the pages fetched so far every this many pages; false: never (the
   * paper's pool is trained once). @default 500
   */
  retrainEvery: number | false;
  /** Most recent pages kept as training documents. @default 3000 */
  maxTrainingPages: number;
  /**
   * false: the chosen classifier scores the page, and every outlink inherits that score (the
   * classifier-guided crawler of the paper's reference [2]; the score is also the state
   * feature); true: it scores each outlink's own text (anchor, DOM context, URL words).
   * Measured on synthetic-hardware (5 seeds x 3,000 pages, K = 1): false gives rlwcs 74.7 +- 1.6 %
   * ground-truth harvest, true gives 61.3 +- 16.1 % (two seeds drift off topic). @default false
   */
  shouldScoreLinks: boolean;
  /** TF-IDF terms (highest information gain) the classifiers see. @default 200 */
  features: number;
  /** Q(lambda) step size (divided by the 5 features of a state-action pair). @default 0.1 */
  alpha: number;
  /** Discount. @default 0.9 */
  gamma: number;
  /** Trace decay. @default 0.8 */
  lambda: number;
  /** Exploration: a random classifier with this probability. @default 0.1 */
  epsilon: number;
  /** Out-degree at which the hub score reaches 1 (log scale). @default 100 */
  hubOutDegree: number;
  /**
   * A diagnostic: every page scored by this one classifier of the pool (0 nn, 1 svm,
   * 2 nb, 3 dt, 4 the majority vote S) and no agent. The best of the five fixed choices bounds
   * what a policy that ignores the state can reach; false, the default, lets Q(lambda) choose.
   * @default false
   */
  fixedClassifier: number | false;
}

export const DEFAULT_RLWCS_CONFIG: Readonly<Omit<RlwcsConfig, 'variant'>> = {
  isLearning: true,
  trainAfterPages: 100,
  retrainEvery: 500,
  maxTrainingPages: 3000,
  shouldScoreLinks: false,
  features: 200,
  alpha: 0.1,
  gamma: 0.9,
  lambda: 0.8,
  epsilon: 0.1,
  hubOutDegree: 100,
  fixedClassifier: false,
};

const D = DEFAULT_RLWCS_CONFIG;

/** The settings of an `svm-links:key=value` spec (no agent), by field name. */
export const SVM_LINKS_SETTINGS = {
  trainAfterPages: numberSetting(D.trainAfterPages, 'pages before the pool is first trained', {
    min: 2,
    isInteger: true,
  }),
  retrainEvery: numberOrOffSetting(D.retrainEvery, 'pages between retrainings (false: never)', {
    min: 1,
    isInteger: true,
  }),
  maxTrainingPages: numberSetting(D.maxTrainingPages, 'recent pages kept for training (>= trainAfterPages)', {
    min: 2,
    isInteger: true,
  }),
  shouldScoreLinks: booleanSetting(D.shouldScoreLinks, "score each outlink's own text (false: the page's)"),
  features: numberSetting(D.features, 'TF-IDF terms the classifiers see', { min: 1, isInteger: true }),
};

/** The settings of an `rlwcs:key=value` spec, by field name. */
export const RLWCS_SETTINGS = {
  isLearning: booleanSetting(D.isLearning, 'false: a random classifier per page'),
  ...SVM_LINKS_SETTINGS,
  alpha: numberSetting(D.alpha, 'Q(lambda) step size', { min: 0, max: 1, isMinOpen: true }),
  gamma: numberSetting(D.gamma, 'discount', { min: 0, max: 1, isMaxOpen: true }),
  lambda: numberSetting(D.lambda, 'trace decay', { min: 0, max: 1 }),
  epsilon: numberSetting(D.epsilon, 'probability of a random classifier', { min: 0, max: 1 }),
  hubOutDegree: numberSetting(D.hubOutDegree, 'out-degree at which the hub score reaches 1', { min: 1 }),
  fixedClassifier: numberOrOffSetting(
    D.fixedClassifier,
    'always this classifier: 0 nn, 1 svm, 2 nb, 3 dt, 4 vote',
    {
      min: 0,
      max: 4,
      isInteger: true,
    },
  ),
};

/** Old spec keys the commands in results/ use. */
export const RLWCS_ALIASES = {
  learn: { to: 'isLearning', values: { 0: false, 1: true } },
  scoreLinks: { to: 'shouldScoreLinks', values: { 0: false, 1: true } },
};

/**
 * Defaults, then `settings`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveRlwcsConfig(variant: RlwcsVariant, settings: Partial<RlwcsConfig> = {}): RlwcsConfig {
  const { variant: _, ...rest } = settings;
  const c = { ...checkSettings(RLWCS_SETTINGS, rest, variant), variant };
  if (c.maxTrainingPages < c.trainAfterPages) {
    throw new ConfigError(
      `${variant}: maxTrainingPages must be an integer >= trainAfterPages (${c.trainAfterPages}), got ${c.maxTrainingPages}`,
      { context: { field: 'maxTrainingPages' } },
    );
  }
  return c;
}
