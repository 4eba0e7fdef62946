/**
 * Training any relevance model from labelled documents: tokenise once, prepare the topic
 * keywords (Algorithm 1 on the relevant training documents, then SHORTCUT1), hold out a
 * stratified validation split for early stopping, and dispatch to the model's trainer. Every
 * random choice comes from `config.seed`, so the same seed and data give the same model.
 */
import { ConfigError, createRng } from '../common/index.js';
import type { WordVectors } from '../text/index.js';
import {
  expandKeywords,
  type KeywordExpansion,
  KeywordSet,
  loadWordVectors,
  shortcutWidth,
} from '../text/index.js';
import { BiLstmModel } from './bilstm-model.js';
import {
  DEFAULT_RELEVANCE_CONFIG,
  type RelevanceConfig,
  type RelevanceConfigInput,
  resolveRelevanceConfig,
} from './config.js';
import { FastModel } from './fast-model.js';
import { pageExamples, type TopicKeywords } from './features.js';
import { LinearSvmModel } from './linear-svm.js';
import { NaiveBayesModel } from './naive-bayes.js';
import type { TrainingProgress } from './progress.js';
import { classWeights, stratifiedSplit } from './split.js';
import {
  type ExampleScorer,
  type LabeledDocument,
  MODEL_NAMES,
  type ModelName,
  type RelevanceModel,
  type TextExample,
} from './types.js';

/** The topic keywords a user gives. */
export interface TopicSpec {
  /** Seed keywords (expanded with Algorithm 1 on the relevant training documents) or an expanded list. */
  keywords: string[];
  /** Keyphrases: given, never expanded. @default [] */
  keyphrases?: string[];
  /** `keywords` are already expanded: skip Algorithm 1. @default false */
  isExpanded?: boolean;
}

/** Options of {@link trainModel}. */
export interface TrainOptions {
  /** Hyperparameters; missing fields take {@link DEFAULT_RELEVANCE_CONFIG}. */
  config?: RelevanceConfigInput;
  /** Topic keywords; required by 'kwbilstm', used by 'fast' when given. */
  topic?: TopicSpec;
  /** Word vectors. @default loaded from the cache (built on first use) */
  vectors?: WordVectors;
  /** Progress reports (epochs, batches). */
  onProgress?: (p: TrainingProgress) => void;
}

/** A trained model and how it was made. */
export interface TrainedModel {
  model: RelevanceModel & ExampleScorer;
  config: RelevanceConfig;
  /** Keywords the model uses (undefined for models without keyword inputs). */
  topic: TopicKeywords | undefined;
  /** The keyword expansion, when Algorithm 1 ran. */
  expansion: KeywordExpansion | undefined;
  /** Wall time of training, in milliseconds. */
  trainMs: number;
}

/** True if the model reads word vectors. */
export function usesVectors(name: ModelName): boolean {
  return name === 'kwbilstm' || name === 'bilstm' || name === 'fast';
}

/** True if the model reads topic keywords. */
export function usesKeywords(name: ModelName): boolean {
  return name === 'kwbilstm' || name === 'fast';
}

/**
 * Checks a model name from the command line.
 * @throws ConfigError listing the valid names
 */
export function parseModelName(value: string): ModelName {
  if ((MODEL_NAMES as readonly string[]).includes(value)) return value as ModelName;
  throw new ConfigError(`unknown model "${value}"; choose one of ${MODEL_NAMES.join(', ')}`, {
    context: { field: 'model' },
  });
}

/**
 * Topic keywords from a spec: Algorithm 1 on the relevant examples (unless already expanded),
 * with the document-frequency contrast against the irrelevant examples, then SHORTCUT1 from the
 * mean keyword count of the relevant examples.
 * @param minDocFreqRatio the contrast's ratio (see `expandKeywords`); false: Algorithm 1 as published
 */
export function prepareTopic(
  spec: TopicSpec,
  relevant: readonly TextExample[],
  vectors: WordVectors | undefined,
  irrelevant: readonly TextExample[] = [],
  minDocFreqRatio: number | false = DEFAULT_RELEVANCE_CONFIG.keywordMinDocFreqRatio,
): { topic: TopicKeywords; expansion: KeywordExpansion | undefined } {
  let keywords = spec.keywords;
  let expansion: KeywordExpansion | undefined;
  if (spec.isExpanded !== true) {
    if (vectors === undefined) throw new RangeError('keyword expansion needs word vectors');
    const seeds = new KeywordSet(spec.keywords).keywords;
    expansion = expandKeywords(
      seeds,
      relevant.map((e) => e.tokens),
      vectors,
      { irrelevant: irrelevant.map((e) => e.tokens), minDocFreqRatio },
    );
    keywords = expansion.keywords;
  }
  const set = new KeywordSet(keywords, spec.keyphrases ?? []);
  let total = 0;
  for (const e of relevant) total += set.count(e.tokens);
  return { topic: { set, shortcut1: shortcutWidth(total / Math.max(1, relevant.length)) }, expansion };
}

/**
 * Trains `name` on token examples with 0/1 labels (the core of {@link trainModel}, reused by
 * cross-validation so documents are tokenised once).
 * @throws ConfigError if a KwBiLSTM has no topic keywords, or a class is missing
 */
export async function trainOnExamples(
  name: ModelName,
  examples: readonly TextExample[],
  labels: ArrayLike<number>,
  options: TrainOptions = {},
): Promise<TrainedModel> {
  const started = performance.now();
  const config = resolveRelevanceConfig(options.config);
  let positives = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i] === 1) positives++;
  if (positives === 0 || positives === labels.length) {
    throw new ConfigError('training needs both relevant and irrelevant documents');
  }
  if (name === 'kwbilstm' && options.topic === undefined) {
    throw new ConfigError('model kwbilstm needs topic keywords: give --keywords FILE');
  }
  const rng = createRng(config.seed).fork(name);
  const vectors =
    usesVectors(name) ||
    (options.topic !== undefined && options.topic.isExpanded !== true && usesKeywords(name))
      ? (options.vectors ?? (await loadWordVectors()))
      : undefined;
  const split = stratifiedSplit(labels, config.validationFraction, rng.fork('validation'));
  const pick = (idx: number[]) => idx.map((i) => examples[i] as TextExample);
  const train = pick(split.train);
  const trainLabels = Int8Array.from(split.train, (i) => labels[i] as number);
  const validation = pick(split.validation);
  const validationLabels = Int8Array.from(split.validation, (i) => labels[i] as number);
  let topic: TopicKeywords | undefined;
  let expansion: KeywordExpansion | undefined;
  if (usesKeywords(name) && options.topic !== undefined) {
    ({ topic, expansion } = prepareTopic(
      options.topic,
      train.filter((_, i) => trainLabels[i] === 1),
      vectors,
      train.filter((_, i) => trainLabels[i] === 0),
      config.keywordMinDocFreqRatio,
    ));
  }
  const common = { train, trainLabels, validation, validationLabels, rng: rng.fork('train') };
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  let model: RelevanceModel & ExampleScorer;
  switch (name) {
    case 'nb':
      model = NaiveBayesModel.train(examples, labels, config.naiveBayes, config.vocabulary);
      break;
    case 'svm':
      model = LinearSvmModel.train({
        ...common,
        ...progress,
        trainWeights: classWeights(trainLabels, config.linearClassWeight),
        config: config.svm,
        vocabulary: config.vocabulary,
      });
      break;
    case 'fast':
      model = FastModel.train({
        ...common,
        ...progress,
        trainWeights: classWeights(trainLabels, config.linearClassWeight),
        topic,
        vectors: vectors as WordVectors,
        config: config.fast,
      });
      break;
    case 'kwbilstm':
    case 'bilstm':
      model = await BiLstmModel.train({
        ...common,
        ...progress,
        kind: name,
        trainWeights: classWeights(trainLabels, config.bilstmClassWeight),
        topic,
        vectors: vectors as WordVectors,
        config: config.bilstm,
      });
      break;
  }
  return { model, config, topic, expansion, trainMs: performance.now() - started };
}

/**
 * Trains a relevance model on labelled documents (see {@link loadDataset}).
 * @throws ConfigError on missing keywords for KwBiLSTM or a single-class dataset
 */
export async function trainModel(
  name: ModelName,
  documents: readonly LabeledDocument[],
  options: TrainOptions = {},
): Promise<TrainedModel> {
  return trainOnExamples(
    name,
    pageExamples(documents),
    Int8Array.from(documents, (d) => d.label),
    options,
  );
}
