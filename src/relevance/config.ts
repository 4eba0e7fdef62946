/**
 * All hyperparameters of the relevance classifiers in one typed config, with the defaults in one
 * exported constant (the CLI maps onto it; every saved model and every evaluation writes it out).
 * Defaults are chosen to train in minutes on two cores.
 */
import { ConfigError } from '../common/index.js';

/** BiLSTM hyperparameters (KwBiLSTM and the vanilla ablation). */
export interface BiLstmConfig {
  /** Words kept per text (MAXLEN of the papers: the first words, only words with a vector). @default 80 */
  maxLen: number;
  /** LSTM units per direction. @default 24 */
  units: number;
  /** Width of the dense layer after mean pooling. @default 32 */
  denseUnits: number;
  /** Dropout rate after that dense layer; 0 turns it off. @default 0.2 */
  dropout: number;
  /** Width of the dense layer after concatenating the keyword inputs (KwBiLSTM). @default 16 */
  keywordDenseUnits: number;
  /** Adam learning rate (reference: 1e-3). @default 0.002 */
  learningRate: number;
  /** Examples per gradient step. @default 32 */
  batchSize: number;
  /** Upper bound on epochs; early stopping usually ends sooner. @default 12 */
  maxEpochs: number;
  /** Epochs without a better validation loss before stopping. @default 2 */
  patience: number;
  /** Pages per forward pass of the TensorFlow.js network (scoring itself runs one page at a time in plain TypeScript). @default 64 */
  scoreBatchSize: number;
}

/** Linear SVM on TF-IDF (ACHE's page classifier), trained by SGD on the hinge loss. */
export interface SvmConfig {
  /** L2 regularisation strength lambda. @default 1e-4 */
  lambda: number;
  /** Initial step size of the 1/(1 + lambda eta0 t) schedule. @default 0.5 */
  eta0: number;
  /** Upper bound on passes over the data. @default 30 */
  maxEpochs: number;
  /** Epochs without a better validation hinge loss before stopping. @default 3 */
  patience: number;
}

/** TF-IDF vocabulary (SVM) and bag-of-words vocabulary (naive Bayes). */
export interface VocabularyConfig {
  /** Words kept, most frequent by document frequency first. @default 20000 */
  maxFeatures: number;
  /** Minimum document frequency of a kept word. @default 2 */
  minDocFreq: number;
}

/** Multinomial naive Bayes. */
export interface NaiveBayesConfig {
  /** Additive (Laplace) smoothing of the collection the classes are smoothed toward. @default 1 */
  alpha: number;
}

/** The fast model: mean word vector + keyword features into logistic regression. */
export interface FastConfig {
  /** Adam learning rate. @default 0.01 */
  learningRate: number;
  /** L2 penalty on the weights. @default 1e-4 */
  l2: number;
  /** Examples per step. @default 32 */
  batchSize: number;
  /** Upper bound on epochs. @default 60 */
  maxEpochs: number;
  /** Epochs without a better validation loss before stopping. @default 5 */
  patience: number;
}

/** Hyperparameters of every relevance classifier. */
export interface RelevanceConfig {
  /** Seed of every random choice (splits, shuffles, initial weights, dropout). @default 'tres' */
  seed: string;
  /**
   * Share of the training documents held out for early stopping (stratified). @default 0.2,
   * chosen by measurement: on DocWeb hardware (100 relevant + 900 irrelevant pages) a tenth
   * holds 9 relevant pages, too few for a steady validation loss: KwBiLSTM stopped at a bad
   * epoch and scored macro F1 79.6 and 63.0 on two folds (recall 20% on the second), 83.4 and
   * 83.1 with a fifth. The SVM and the fast model scored the same within a point or two either
   * way (five topics, 5-fold means 91.4 against 91.1 and 75.1 against 75.2); results/relevance.
   */
  validationFraction: number;
  /**
   * Weight classes by inverse frequency in the loss ('balanced'), or not (false: the papers'
   * plain cross-entropy on ~1:9 data). @default 'balanced'
   */
  linearClassWeight: 'balanced' | false;
  /**
   * Class weighting of the BiLSTMs. @default 'balanced', chosen by measurement: KwBiLSTM,
   * 5-fold cross-validation, seed 'bench', at most 5 epochs with patience 1 (the relevance
   * benchmark's budget), precision / recall / macro F1 of the relevant class, in %:
   * - synthetic pseudo-word web, 50 relevant + 450 irrelevant pages: plain cross-entropy
   *   97.1 / 72.0 ± 14.7 / 90.2 ± 5.7; balanced 84.4 / 86.0 ± 4.9 / 91.4 ± 2.0;
   * - DocWeb hardware, 100 + 900 pages: plain 51.7 / 35.0 ± 20.2 / 67.5 ± 10.9; balanced
   *   62.3 / 49.0 ± 27.1 / 73.3 ± 11.6.
   * On ~1:9 data the plain loss leaves the BiLSTMs leaning on the majority class (low recall,
   * a fold with no relevant page found); weighting raises recall and macro F1 on both.
   */
  bilstmClassWeight: 'balanced' | false;
  /** P(relevant) at or above which a page is relevant (reward 1). @default 0.5 */
  threshold: number;
  /**
   * Document-frequency contrast of the keyword expansion: a discovered keyword must occur in at
   * least this many times the share of relevant training pages as of irrelevant ones (see
   * `expandKeywords`); false keeps every word Algorithm 1 admits. @default 3
   */
  keywordMinDocFreqRatio: number | false;
  bilstm: BiLstmConfig;
  svm: SvmConfig;
  vocabulary: VocabularyConfig;
  naiveBayes: NaiveBayesConfig;
  fast: FastConfig;
}

/** Defaults of {@link RelevanceConfig}. */
export const DEFAULT_RELEVANCE_CONFIG: RelevanceConfig = {
  seed: 'tres',
  validationFraction: 0.2,
  linearClassWeight: 'balanced',
  bilstmClassWeight: 'balanced',
  threshold: 0.5,
  keywordMinDocFreqRatio: 3,
  bilstm: {
    maxLen: 80,
    units: 24,
    denseUnits: 32,
    dropout: 0.2,
    keywordDenseUnits: 16,
    learningRate: 0.002,
    batchSize: 32,
    maxEpochs: 12,
    patience: 2,
    scoreBatchSize: 64,
  },
  svm: { lambda: 1e-4, eta0: 0.5, maxEpochs: 30, patience: 3 },
  vocabulary: { maxFeatures: 20_000, minDocFreq: 2 },
  naiveBayes: { alpha: 1 },
  fast: { learningRate: 0.01, l2: 1e-4, batchSize: 32, maxEpochs: 60, patience: 5 },
};

/** A partial config: any field may be left out. */
export type RelevanceConfigInput = Partial<
  Omit<RelevanceConfig, 'bilstm' | 'svm' | 'vocabulary' | 'naiveBayes' | 'fast'>
> & {
  bilstm?: Partial<BiLstmConfig>;
  svm?: Partial<SvmConfig>;
  vocabulary?: Partial<VocabularyConfig>;
  naiveBayes?: Partial<NaiveBayesConfig>;
  fast?: Partial<FastConfig>;
};

function check(isOk: boolean, field: string, rule: string, value: unknown): void {
  if (!isOk)
    throw new ConfigError(`relevance config: ${field} must be ${rule}, got ${String(value)}`, {
      context: { field },
    });
}

/**
 * Fills in defaults and checks ranges.
 * @throws ConfigError naming the first bad field
 */
export function resolveRelevanceConfig(input: RelevanceConfigInput = {}): RelevanceConfig {
  const d = DEFAULT_RELEVANCE_CONFIG;
  const c: RelevanceConfig = {
    ...d,
    ...input,
    bilstm: { ...d.bilstm, ...input.bilstm },
    svm: { ...d.svm, ...input.svm },
    vocabulary: { ...d.vocabulary, ...input.vocabulary },
    naiveBayes: { ...d.naiveBayes, ...input.naiveBayes },
    fast: { ...d.fast, ...input.fast },
  };
  check(
    c.validationFraction > 0 && c.validationFraction < 0.5,
    'validationFraction',
    'in (0, 0.5)',
    c.validationFraction,
  );
  check(c.threshold > 0 && c.threshold < 1, 'threshold', 'in (0, 1)', c.threshold);
  check(
    c.keywordMinDocFreqRatio === false ||
      (c.keywordMinDocFreqRatio > 0 && Number.isFinite(c.keywordMinDocFreqRatio)),
    'keywordMinDocFreqRatio',
    'a positive number or false',
    c.keywordMinDocFreqRatio,
  );
  const ints: [string, number][] = [
    ['bilstm.maxLen', c.bilstm.maxLen],
    ['bilstm.units', c.bilstm.units],
    ['bilstm.denseUnits', c.bilstm.denseUnits],
    ['bilstm.keywordDenseUnits', c.bilstm.keywordDenseUnits],
    ['bilstm.batchSize', c.bilstm.batchSize],
    ['bilstm.maxEpochs', c.bilstm.maxEpochs],
    ['bilstm.scoreBatchSize', c.bilstm.scoreBatchSize],
    ['svm.maxEpochs', c.svm.maxEpochs],
    ['vocabulary.maxFeatures', c.vocabulary.maxFeatures],
    ['vocabulary.minDocFreq', c.vocabulary.minDocFreq],
    ['fast.batchSize', c.fast.batchSize],
    ['fast.maxEpochs', c.fast.maxEpochs],
  ];
  for (const [field, v] of ints) check(Number.isInteger(v) && v >= 1, field, 'an integer >= 1', v);
  for (const [field, v] of [
    ['bilstm.patience', c.bilstm.patience],
    ['svm.patience', c.svm.patience],
    ['fast.patience', c.fast.patience],
  ] as [string, number][]) {
    check(Number.isInteger(v) && v >= 0, field, 'an integer >= 0', v);
  }
  check(c.bilstm.dropout >= 0 && c.bilstm.dropout < 1, 'bilstm.dropout', 'in [0, 1)', c.bilstm.dropout);
  for (const [field, v] of [
    ['bilstm.learningRate', c.bilstm.learningRate],
    ['svm.lambda', c.svm.lambda],
    ['svm.eta0', c.svm.eta0],
    ['naiveBayes.alpha', c.naiveBayes.alpha],
    ['fast.learningRate', c.fast.learningRate],
  ] as [string, number][]) {
    check(v > 0 && Number.isFinite(v), field, 'a positive number', v);
  }
  check(c.fast.l2 >= 0, 'fast.l2', '>= 0', c.fast.l2);
  return c;
}
