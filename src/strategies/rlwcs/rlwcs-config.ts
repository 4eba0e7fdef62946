/**
 * Every hyperparameter of RLwCS (Partalas, Paliouras and Vlahavas, ECAI 2008) and of its SVM
 * baseline in one typed config; a run writes it into the crawl store (meta `strategyConfig`).
 * The paper gives the classifiers' settings (section 3) but not those of Q(lambda); ours are
 * the usual values of Sutton and Barto's examples.
 */
import { ConfigError } from '../../common/errors.js';

/** `rlwcs`: Q(lambda) picks the classifier per page; `svm-links`: always the SVM (the paper's baseline). */
export type RlwcsVariant = 'rlwcs' | 'svm-links';

export interface RlwcsConfig {
  variant: RlwcsVariant;
  /**
   * 1: Q(lambda) learns which classifier to use; 0: the choice does not learn, each page's
   * classifier is drawn uniformly at random (what the untrained agent, all weights 0, does once
   * its ties are broken at random). The classifiers are trained either way. @default 1
   */
  learn: 0 | 1;
  /**
   * Pages fetched before the pool is first trained on them (the paper trains on a labelled
   * topic collection before crawling; a crawl has only its own pages, judged by the crawl's
   * judge). Until then outlinks get their page's relevance (best-first). @default 100
   */
  trainAfterPages: number;
  /**
   * Retrain the pool on the pages fetched so far every this many pages; 0: never (the paper's
   * pool is trained once). @default 500
   */
  retrainEvery: number;
  /** Most recent pages kept as training documents. @default 3000 */
  maxTrainingPages: number;
  /**
   * 0: the chosen classifier scores the page, and every outlink inherits that score (the
   * classifier-guided crawler of the paper's reference [2]; the score is also the state
   * feature); 1: it scores each outlink's own text (anchor, DOM context, URL words).
   * Measured on synthetic-hardware (5 seeds x 3,000 pages, K = 1): 0 gives rlwcs 74.7 +- 1.6 %
   * ground-truth harvest, 1 gives 61.3 +- 16.1 % (two seeds drift off topic). @default 0
   */
  scoreLinks: 0 | 1;
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
   * A diagnostic (issue 9): every page scored by this one classifier of the pool (0 nn, 1 svm,
   * 2 nb, 3 dt, 4 the majority vote S) and no agent. The best of the five fixed choices bounds
   * what a policy that ignores the state can reach; -1, the default, lets Q(lambda) choose.
   * @default -1
   */
  fixedClassifier: number;
}

export const DEFAULT_RLWCS_CONFIG: Readonly<Omit<RlwcsConfig, 'variant'>> = {
  learn: 1,
  trainAfterPages: 100,
  retrainEvery: 500,
  maxTrainingPages: 3000,
  scoreLinks: 0,
  features: 200,
  alpha: 0.1,
  gamma: 0.9,
  lambda: 0.8,
  epsilon: 0.1,
  hubOutDegree: 100,
  fixedClassifier: -1,
};

/** Keys of an `rlwcs:...` spec. */
export const RLWCS_KEYS = [
  'learn',
  'trainAfterPages',
  'retrainEvery',
  'maxTrainingPages',
  'scoreLinks',
  'features',
  'alpha',
  'gamma',
  'lambda',
  'epsilon',
  'hubOutDegree',
  'fixedClassifier',
] as const;
/** Keys of an `svm-links:...` spec (no agent). */
export const SVM_LINKS_KEYS = [
  'trainAfterPages',
  'retrainEvery',
  'maxTrainingPages',
  'scoreLinks',
  'features',
] as const;

/**
 * Defaults, then `overrides`, checked once.
 * @throws ConfigError naming the first field out of range.
 */
export function resolveRlwcsConfig(
  variant: RlwcsVariant,
  overrides: Partial<Record<string, number>> = {},
): RlwcsConfig {
  const c = { ...DEFAULT_RLWCS_CONFIG, ...overrides, variant } as RlwcsConfig;
  const fail = (field: string, rule: string): never => {
    throw new ConfigError(
      `${variant} config: ${field} must be ${rule}, got ${c[field as keyof RlwcsConfig]}`,
      {
        context: { field },
      },
    );
  };
  const isInt = (v: number, min: number) => Number.isInteger(v) && v >= min;
  if (c.learn !== 0 && c.learn !== 1) fail('learn', '0 or 1');
  if (!isInt(c.trainAfterPages, 2)) fail('trainAfterPages', 'an integer >= 2');
  if (!isInt(c.retrainEvery, 0)) fail('retrainEvery', 'an integer >= 0 (0: never)');
  if (!isInt(c.maxTrainingPages, c.trainAfterPages))
    fail('maxTrainingPages', 'an integer >= trainAfterPages');
  if (c.scoreLinks !== 0 && c.scoreLinks !== 1) fail('scoreLinks', '0 or 1');
  if (!isInt(c.features, 1)) fail('features', 'an integer >= 1');
  if (!(c.alpha > 0 && c.alpha <= 1)) fail('alpha', 'in (0, 1]');
  if (!(c.gamma >= 0 && c.gamma < 1)) fail('gamma', 'in [0, 1)');
  if (!(c.lambda >= 0 && c.lambda <= 1)) fail('lambda', 'in [0, 1]');
  if (!(c.epsilon >= 0 && c.epsilon <= 1)) fail('epsilon', 'in [0, 1]');
  if (!(c.hubOutDegree >= 1)) fail('hubOutDegree', '>= 1');
  if (!(Number.isInteger(c.fixedClassifier) && c.fixedClassifier >= -1 && c.fixedClassifier <= 4))
    fail('fixedClassifier', 'an integer from -1 (Q(lambda) chooses) to 4 (0 nn, 1 svm, 2 nb, 3 dt, 4 vote)');
  return c;
}
