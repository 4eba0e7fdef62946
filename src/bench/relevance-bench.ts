/**
 * Relevance benchmark: on labelled datasets cut from sandbox webs and from the DocWeb, the
 * Table-1 metrics of all five classifiers (stratified k-fold cross-validation), their page and
 * anchor throughput, and the page rate the crawl loop can sustain with the default page and
 * anchor models, measured as the loop scores: one page, then its out-links, per step. Writes `relevance-bench.json` and `relevance-bench.md` to `outDir`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../common/rng.js';
import {
  type RelevanceConfig,
  type RelevanceConfigInput,
  resolveRelevanceConfig,
} from '../relevance/config.js';
import { crossValidate, formatTable1, type ModelEvaluation } from '../relevance/cross-validation.js';
import { DEFAULT_ANCHOR_MODEL, DEFAULT_PAGE_MODEL } from '../relevance/defaults.js';
import { ensureTfBackend, type TfBackendInfo, type TfBackendName } from '../relevance/tf-backend.js';
import { MODEL_NAMES, type ModelName } from '../relevance/types.js';
import { defaultCacheDir } from '../sandbox/docweb/index.js';
import { loadWordVectors } from '../text/vector-cache.js';
import type { WordVectors } from '../text/word-vectors.js';
import { type BenchEnv, benchEnv, writeResults } from './bench-env.js';
import {
  type CrawlLoopRate,
  isTfModel,
  measureCrawlLoop,
  measureThroughput,
  sampleIndices,
  type Throughput,
} from './relevance-bench-measure.js';
import { relevanceMarkdown } from './relevance-bench-report.js';
import {
  BENCH_DATASET_NAMES,
  type BenchDataset,
  type BenchDatasetName,
  cutDataset,
  docwebUnavailable,
  isDocwebDataset,
} from './relevance-datasets.js';

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
  /** DocWeb cache folder (`tres docweb build --cache`); DocWeb datasets are skipped without a build. @default `defaultCacheDir()` */
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

/** Defaults of {@link RelevanceBenchOptions}. */
export const DEFAULT_RELEVANCE_BENCH_OPTIONS: RelevanceBenchOptions = {
  outDir: 'results/relevance',
  seed: 'bench',
  relevantPages: 40,
  docwebRelevantPages: 100,
  docwebCacheDir: defaultCacheDir(),
  folds: 5,
  models: [...MODEL_NAMES],
  datasets: [...BENCH_DATASET_NAMES],
  backends: ['wasm'],
  throughputPages: 300,
  throughputAnchors: 10_000,
  crawlLoopSteps: 300,
  config: {},
  log: (line) => console.log(line),
};

/** Measurement types, re-exported for readers of the JSON. */
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

async function benchDataset(
  data: BenchDataset,
  options: RelevanceBenchOptions,
  config: RelevanceConfigInput,
  vectors: WordVectors,
): Promise<Omit<DatasetResult, 'elapsedMs'>> {
  const { log } = options;
  const relevant = data.documents.filter((d) => d.label === 1).length;
  const dirs = new Map<ModelName, string>();
  const trainMs = new Map<ModelName, number>();
  const work = mkdtempSync(join(tmpdir(), 'tres-relbench-'));
  try {
    const evaluations = await crossValidate(data.documents, {
      models: options.models,
      folds: options.folds,
      config,
      vectors,
      topic: { keywords: data.seedKeywords, keyphrases: data.keyphrases },
      onProgress: (p) => {
        if (p.valLoss !== undefined && isTfModel(p.model as ModelName)) {
          log(
            `    ${p.model} epoch ${p.epoch}: loss ${p.trainLoss?.toFixed(4)} val ${p.valLoss.toFixed(4)}${p.isBest ? ' *' : ''}`,
          );
        }
      },
      onFold: (f) =>
        log(
          `  ${f.model} fold ${f.fold}/${f.folds}: F-macro ${(100 * f.metrics.macroF1).toFixed(1)} (${(f.trainMs / 1000).toFixed(1)} s)`,
        ),
      // Throughput is measured on the first fold's model, saved and loaded again as the crawl
      // loads it: training each model once more on all pages would add a sixth of the run.
      onTrained: async ({ model, fold, trained }) => {
        if (fold !== 1) return;
        const dir = join(work, model);
        await trained.model.save(dir);
        dirs.set(model, dir);
        trainMs.set(model, trained.trainMs);
      },
    });
    log(formatTable1(evaluations, data.name));
    const rng = createRng(options.seed).fork(`throughput-${data.name}`);
    const sample = {
      pages: sampleIndices(data.documents.length, options.throughputPages, rng.fork('pages')),
      anchors: sampleIndices(data.anchors.length, options.throughputAnchors, rng.fork('anchors')),
    };
    const throughput: Throughput[] = [];
    for (const model of options.models) {
      const dir = dirs.get(model) as string;
      for (const tp of await measureThroughput(
        dir,
        model,
        trainMs.get(model) ?? 0,
        data,
        sample,
        options.backends,
        vectors,
      )) {
        throughput.push(tp);
        log(
          `  ${tp.model}${tp.backend ? ` (${tp.backend})` : ''}: ${Math.round(tp.pagesPerSec)} pages/s, ${Math.round(tp.anchorsPerSec)} anchors/s, anchor F-macro ${(100 * tp.anchorMacroF1).toFixed(1)}`,
        );
      }
    }
    await ensureTfBackend(options.backends[0]);
    const crawlLoop = await measureCrawlLoop(dirs, data, options.crawlLoopSteps, vectors, rng.fork('crawl'));
    if (crawlLoop) {
      log(
        `  crawl loop (${crawlLoop.pageModel} page + ${crawlLoop.anchorModel} on ${crawlLoop.meanAnchorsPerStep.toFixed(1)} links per step): ` +
          `${Math.round(crawlLoop.pagesPerSec)} pages/s (${crawlLoop.pageMsPerStep.toFixed(2)} + ${crawlLoop.anchorMsPerStep.toFixed(2)} ms per step)`,
      );
    }
    return {
      dataset: data.name,
      documents: data.documents.length,
      relevant,
      anchors: data.anchors.length,
      meanLinksPerPage: data.meanLinksPerPage,
      evaluations,
      throughput,
      crawlLoop,
      crawlPagesPerSec: crawlLoop?.pagesPerSec ?? Number.NaN,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs the relevance benchmark, prints the tables and writes JSON and Markdown results. DocWeb
 * datasets are skipped, with a message, when `docwebCacheDir` holds no build.
 */
export async function runRelevanceBench(
  input: Partial<RelevanceBenchOptions> = {},
): Promise<DatasetResult[]> {
  const options: RelevanceBenchOptions = { ...DEFAULT_RELEVANCE_BENCH_OPTIONS, ...input };
  const { log } = options;
  const env = benchEnv();
  const loadAtStart = loadavg();
  const started = performance.now();
  const config: RelevanceConfigInput = { ...options.config, seed: options.seed };
  const backend = await ensureTfBackend(options.backends[0]);
  log(
    `tfjs backend: ${backend.name} (init ${backend.initMs.toFixed(0)} ms)${backend.fallbackReason ? `, WASM failed: ${backend.fallbackReason}` : ''}`,
  );
  let t = performance.now();
  const vectors = await loadWordVectors({ onProgress: log });
  log(`word vectors: ${vectors.size} words in ${(performance.now() - t).toFixed(0)} ms`);
  const results: DatasetResult[] = [];
  const skipped: { dataset: BenchDatasetName; reason: string }[] = [];
  const noDocweb = docwebUnavailable(options.docwebCacheDir);
  for (const name of options.datasets) {
    if (isDocwebDataset(name) && noDocweb !== undefined) {
      skipped.push({ dataset: name, reason: noDocweb });
      log(`\n${name} skipped: ${noDocweb}`);
      continue;
    }
    t = performance.now();
    const size = isDocwebDataset(name) ? options.docwebRelevantPages : options.relevantPages;
    const data = cutDataset(name, size, options.seed, vectors, options.docwebCacheDir);
    log(
      `\n${name}: ${data.documents.length} pages (${data.documents.filter((d) => d.label === 1).length} relevant), ` +
        `${data.anchors.length} anchors (${data.meanLinksPerPage.toFixed(1)} per page), cut in ${(performance.now() - t).toFixed(0)} ms`,
    );
    const result = await benchDataset(data, options, config, vectors);
    results.push({ ...result, elapsedMs: performance.now() - t });
    log(`  ${name} done in ${((performance.now() - t) / 60_000).toFixed(1)} min`);
  }
  const record: RelevanceBenchRecord = {
    env,
    loadAverage: { start: loadAtStart, end: loadavg() },
    elapsedMs: performance.now() - started,
    options: { ...options, log: undefined },
    config: resolveRelevanceConfig(config),
    backend,
    defaults: { pageModel: DEFAULT_PAGE_MODEL, anchorModel: DEFAULT_ANCHOR_MODEL },
    skipped,
    results,
  };
  writeResults(options.outDir, 'relevance-bench', record, relevanceMarkdown(record));
  log(`\nresults written to ${options.outDir} (${((performance.now() - started) / 60_000).toFixed(1)} min)`);
  return results;
}
