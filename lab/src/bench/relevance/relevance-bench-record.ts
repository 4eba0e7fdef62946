/**
 * The types of the relevance benchmark's options and of what it writes (relevance-bench.json), apart
 * from the benchmark itself so that its report (relevance-bench-report.ts) does not import it.
 */
import type {
  ModelEvaluation,
  ModelName,
  RelevanceConfig,
  RelevanceConfigInput,
  TfBackendInfo,
  TfBackendName,
} from 'tres-crawler/internals';
import type { BenchEnv } from '../bench-env.js';
import type { CrawlLoopRate, Throughput } from './relevance-bench-measure.js';
import type { BenchDatasetName } from './relevance-datasets.js';

/** Options of {@link runRelevanceBench}. */
export interface RelevanceBenchOptions {
  /** Folder for the JSON and Markdown results. @default 'results/relevance' */
  outDir: string;
  /** Seed of the webs, the cuts and every model. @default 'bench' */
  seed: string;
  /** Relevant pages per synthetic dataset (irrelevant: nine times as many). @default 40 */
  relevantPages: number;
  /** Relevant pages per DocWeb dataset (irrelevant: nine times as many). @default 100 */
  docwebRelevantPages: number;
  /** DocWeb cache folder (`npm run lab -- docweb build --cache`); DocWeb datasets are skipped without a build. @default `defaultCacheDir()` */
  docwebCacheDir: string;
  /** Cross-validation folds. @default 5 */
  folds: number;
  /** Models to evaluate. @default all five */
  models: ModelName[];
  /** Datasets. @default all seven (two synthetic webs, five DocWeb topics) */
  datasets: BenchDatasetName[];
  /**
   * TensorFlow.js backends: the first trains the BiLSTMs; throughput is measured under each,
   * which only repeats it, as BiLSTM scoring runs in plain TypeScript. @default ['wasm']
   */
  backends: TfBackendName[];
  /** Pages scored per model and backend for page throughput (the first ones of a seeded order). @default 300 */
  throughputPages: number;
  /** Anchors scored per model and backend for anchor throughput and quality (a seeded sample). @default 10000 */
  throughputAnchors: number;
  /** Steps (one page and its out-links each) of the crawl-loop measurement. @default 300 */
  crawlLoopSteps: number;
  /**
   * Classifier hyperparameters. @default {} (the models' own defaults). The BiLSTMs used to be
   * capped at 5 epochs with patience 1 here to save time; on DocWeb hardware that cost KwBiLSTM
   * 7 points of macro F1 on one of two paired folds (68.6 against 75.8; the other 63.7 both), so
   * the benchmark measures the models as the crawl trains them: roughly 20 minutes per DocWeb
   * dataset on two idle cores, most of it the BiLSTMs
   */
  config: RelevanceConfigInput;
  /** Progress lines. @default console.log */
  log: (line: string) => void;
}

export type { CrawlLoopRate, Throughput };

/** What {@link runRelevanceBench} writes to `relevance-bench.json`. */
export interface RelevanceBenchRecord {
  env: BenchEnv;
  /** 1, 5 and 15 minute load averages at start and end (other work on the machine slows it). */
  loadAverage: { start: number[]; end: number[] };
  elapsedMs: number;
  options: Omit<RelevanceBenchOptions, 'log'> & { log?: undefined };
  /** The full classifier config of the run (defaults filled in; folds add `/foldN` to the seed). */
  config: RelevanceConfig;
  backend: TfBackendInfo;
  defaults: { pageModel: ModelName; anchorModel: ModelName };
  skipped: { dataset: BenchDatasetName; reason: string }[];
  results: DatasetResult[];
}

/** Everything one dataset gave. */
export interface DatasetResult {
  dataset: BenchDatasetName;
  documents: number;
  relevant: number;
  anchors: number;
  meanLinksPerPage: number;
  evaluations: ModelEvaluation[];
  throughput: Throughput[];
  crawlLoop: CrawlLoopRate | undefined;
  /** `crawlLoop.pagesPerSec`, NaN if a default model was not benchmarked. */
  crawlPagesPerSec: number;
  elapsedMs: number;
}
