/**
 * Public API of the relevance room: the `RelevanceModel` interface, its five classifiers
 * (KwBiLSTM, vanilla BiLSTM, linear SVM on TF-IDF, multinomial naive Bayes, the fast
 * vectors+keywords model), training from folders or JSON lines, stratified cross-validation with
 * the metrics of Table 1, and saving/loading models.
 */
export { type BiLstmKind, BiLstmModel } from './bilstm-model.js';
export { ColdStartJudge, type ColdStartJudgeOptions, DEFAULT_COLD_START_JUDGE } from './cold-start-judge.js';
export {
  type BiLstmConfig,
  DEFAULT_RELEVANCE_CONFIG,
  type FastConfig,
  type NaiveBayesConfig,
  type RelevanceConfig,
  type RelevanceConfigInput,
  resolveRelevanceConfig,
  type SvmConfig,
  type VocabularyConfig,
} from './config.js';
export {
  type CrossValidationOptions,
  crossValidate,
  formatTable1,
  MODEL_TITLES,
  type ModelEvaluation,
} from './cross-validation.js';
export {
  type DatasetSource,
  documentProblem,
  isBinaryForTraining,
  type LoadDatasetOptions,
  loadDataset,
  loadFolder,
  readDocumentFile,
} from './dataset.js';
export { trainDecisionTree } from './decision-tree.js';
export { DEFAULT_ANCHOR_MODEL, DEFAULT_PAGE_MODEL } from './defaults.js';
export { type DenseClassifier, trainKernelNaiveBayes, trainLinearSvm } from './dense-classifiers.js';
export { fetchExamplePages, readExamplePages } from './example-pages.js';
export { FastModel } from './fast-model.js';
export {
  anchorExamples,
  keywordFeatureSize,
  pageExamples,
  type TopicKeywords,
  type TopicKeywordsJson,
  topicFromJson,
  topicToJson,
  writeKeywordFeatures,
} from './features.js';
export { looksLikeHtml } from './html-text.js';
export { LinearSvmModel } from './linear-svm.js';
export { type LoadModelOptions, loadModel } from './load-model.js';
export {
  addConfusion,
  type ClassificationMetrics,
  type Confusion,
  confusion,
  logLoss,
  metricsOf,
  rocAuc,
  wilsonInterval,
} from './metrics.js';
export { NaiveBayesModel } from './naive-bayes.js';
export { fitPlatt, type PlattScaling, plattProbability } from './platt.js';
export { createProgressBar, type ProgressStream, type TrainingProgress } from './progress.js';
export { classWeights, EARLY_STOPPING_MIN_DELTA, stratifiedFolds, stratifiedSplit } from './split.js';
export { ensureTfBackend, type TfBackendInfo, type TfBackendName } from './tf-backend.js';
export { trainTinyMlp } from './tiny-mlp.js';
export { type HeldOutResult, trainToFolder } from './train-folder.js';
export {
  parseModelName,
  prepareTopic,
  type TopicSpec,
  type TrainedModel,
  type TrainOptions,
  trainModel,
  trainOnExamples,
  usesKeywords,
  usesVectors,
} from './training.js';
export {
  type AnchorInput,
  type ExampleScorer,
  type LabeledDocument,
  MODEL_NAMES,
  type ModelName,
  type PageInput,
  type RelevanceModel,
  type TextExample,
} from './types.js';
