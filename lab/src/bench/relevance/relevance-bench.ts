/**
 * Relevance benchmark: on labelled datasets cut from sandbox webs and from the DocWeb, the
 * Table-1 metrics of all five classifiers (stratified k-fold cross-validation), their page and
 * anchor throughput, and the page rate the crawl loop can sustain with the default page and
 * anchor models, measured as the loop scores: one page, then its out-links, per step. Writes `relevance-bench.json` and `relevance-bench.md` to `outDir`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from 'tres-crawler';
import type { WordVectors } from 'tres-crawler/internals';
import {
  crossValidate,
  DEFAULT_ANCHOR_MODEL,
  DEFAULT_PAGE_MODEL,
  ensureTfBackend,
  formatTable1,
  loadWordVectors,
  MODEL_NAMES,
  type ModelName,
  type RelevanceConfigInput,
  resolveRelevanceConfig,
} from 'tres-crawler/internals';
import { defaultCacheDir } from '../../docweb/index.js';
import { benchEnv, writeResults } from '../bench-env.js';
import {
  isTfModel,
  measureCrawlLoop,
  measureThroughput,
  sampleIndices,
  type Throughput,
} from './relevance-bench-measure.js';
import type { DatasetResult, RelevanceBenchOptions, RelevanceBenchRecord } from './relevance-bench-record.js';
import { relevanceMarkdown } from './relevance-bench-report.js';
import {
  BENCH_DATASET_NAMES,
  type BenchDataset,
  type BenchDatasetName,
  cutDataset,
  docwebUnavailable,
  isDocwebDataset,
} from './relevance-datasets.js';

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

export type {
  CrawlLoopRate,
  DatasetResult,
  RelevanceBenchOptions,
  RelevanceBenchRecord,
  Throughput,
} from './relevance-bench-record.js';

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
