/**
 * Relevance benchmark: on labelled datasets cut from sandbox webs, the Table-1 metrics of all
 * five classifiers (stratified k-fold cross-validation), their page and anchor throughput, the
 * TensorFlow.js backends compared, and the page rate the crawl loop can sustain with the default
 * page and anchor models. Writes `relevance-bench.json` and `relevance-bench.md` to `outDir`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RelevanceConfigInput } from '../relevance/config.js';
import {
  crossValidate,
  formatTable1,
  MODEL_TITLES,
  type ModelEvaluation,
} from '../relevance/cross-validation.js';
import { DEFAULT_ANCHOR_MODEL, DEFAULT_PAGE_MODEL } from '../relevance/defaults.js';
import { loadModel } from '../relevance/load-model.js';
import { confusion, metricsOf } from '../relevance/metrics.js';
import { ensureTfBackend, type TfBackendName } from '../relevance/tf-backend.js';
import { trainModel } from '../relevance/training.js';
import { MODEL_NAMES, type ModelName } from '../relevance/types.js';
import { loadWordVectors } from '../text/vector-cache.js';
import { type BenchDataset, type BenchDatasetName, cutDataset } from './relevance-datasets.js';

/** Options of {@link runRelevanceBench}. */
export interface RelevanceBenchOptions {
  /** Folder for the JSON and Markdown results. @default 'results/relevance' */
  outDir: string;
  /** Seed of the webs, the cuts and every model. @default 'bench' */
  seed: string;
  /** Relevant pages per dataset (irrelevant: nine times as many). @default 100 */
  relevantPages: number;
  /** Cross-validation folds. @default 5 */
  folds: number;
  /** Models to evaluate. @default all five */
  models: ModelName[];
  /** Datasets. @default both */
  datasets: BenchDatasetName[];
  /** Backends whose BiLSTM scoring throughput is measured. @default ['wasm', 'cpu'] */
  backends: TfBackendName[];
  /** Classifier hyperparameters. @default the defaults */
  config: RelevanceConfigInput;
  /** Progress lines. @default console.log */
  log: (line: string) => void;
}

/** Defaults of {@link RelevanceBenchOptions}. */
export const DEFAULT_RELEVANCE_BENCH_OPTIONS: RelevanceBenchOptions = {
  outDir: 'results/relevance',
  seed: 'bench',
  relevantPages: 100,
  folds: 5,
  models: [...MODEL_NAMES],
  datasets: ['synthetic-words', 'synthetic-pseudo'],
  backends: ['wasm', 'cpu'],
  config: {},
  log: (line) => console.log(line),
};

/** Throughput of one model trained on a whole dataset. */
export interface Throughput {
  model: ModelName;
  backend: TfBackendName | null;
  trainMs: number;
  pagesPerSec: number;
  anchorsPerSec: number;
  /** Macro F1 of anchor scores against the ground truth of the link targets. */
  anchorMacroF1: number;
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
  /** Pages per second the crawl loop can sustain scoring each page and all its anchors. */
  crawlPagesPerSec: number;
}

async function measureThroughput(
  data: BenchDataset,
  name: ModelName,
  backends: TfBackendName[],
  config: RelevanceConfigInput,
): Promise<Throughput[]> {
  const isTf = name === 'kwbilstm' || name === 'bilstm';
  const vectors = await loadWordVectors();
  if (isTf) await ensureTfBackend(backends[0]);
  const trained = await trainModel(name, data.documents, {
    config,
    vectors,
    topic: { keywords: data.seedKeywords },
  });
  const dir = mkdtempSync(join(tmpdir(), 'tres-bench-'));
  await trained.model.save(dir);
  trained.model.dispose();
  const out: Throughput[] = [];
  for (const backend of isTf ? backends : [undefined]) {
    const info = backend ? await ensureTfBackend(backend) : undefined;
    const model = await loadModel(dir, { vectors });
    await model.scorePages(data.documents.slice(0, 8)); // warm-up
    let t = performance.now();
    await model.scorePages(data.documents);
    const pagesPerSec = data.documents.length / ((performance.now() - t) / 1000);
    t = performance.now();
    const anchorProbs = await model.scoreAnchors(data.anchors);
    const anchorsPerSec = data.anchors.length / ((performance.now() - t) / 1000);
    model.dispose();
    const anchorMacroF1 = metricsOf(confusion(data.anchorLabels, anchorProbs)).macroF1;
    out.push({
      anchorMacroF1,
      model: name,
      backend: info?.name ?? null,
      trainMs: trained.trainMs,
      pagesPerSec,
      anchorsPerSec,
    });
  }
  rmSync(dir, { recursive: true, force: true });
  if (isTf) await ensureTfBackend(backends[0]);
  return out;
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

function markdown(results: DatasetResult[], options: RelevanceBenchOptions): string {
  const lines = [
    '# Relevance benchmark',
    '',
    `Seed ${options.seed}; ${options.folds}-fold stratified cross-validation; ${options.relevantPages} relevant and ` +
      `${options.relevantPages * 9} irrelevant pages per dataset. Default page model: ${DEFAULT_PAGE_MODEL}, ` +
      `anchor model: ${DEFAULT_ANCHOR_MODEL}.`,
  ];
  for (const r of results) {
    lines.push(
      '',
      `## ${r.dataset}`,
      '',
      `${r.documents} pages (${r.relevant} relevant), ${r.anchors} anchors.`,
      '',
    );
    lines.push(formatTable1(r.evaluations, r.dataset), '');
    lines.push(
      '| Model | backend | train s (all pages) | pages/s | anchors/s | anchor F-macro (target labels) |',
      '|---|---|---|---|---|---|',
    );
    for (const t of r.throughput) {
      lines.push(
        `| ${MODEL_TITLES[t.model]} | ${t.backend ?? '-'} | ${(t.trainMs / 1000).toFixed(1)} | ${Math.round(t.pagesPerSec)} | ${Math.round(t.anchorsPerSec)} | ${(100 * t.anchorMacroF1).toFixed(1)} |`,
      );
    }
    lines.push(
      '',
      `Crawl loop with ${DEFAULT_PAGE_MODEL} pages and ${DEFAULT_ANCHOR_MODEL} anchors (${r.meanLinksPerPage.toFixed(1)} links per page): ` +
        `${Math.round(r.crawlPagesPerSec)} pages/s sustainable by the classifiers.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Runs the relevance benchmark, prints the tables and writes JSON and Markdown results. */
export async function runRelevanceBench(
  input: Partial<RelevanceBenchOptions> = {},
): Promise<DatasetResult[]> {
  const options: RelevanceBenchOptions = { ...DEFAULT_RELEVANCE_BENCH_OPTIONS, ...input };
  const { log } = options;
  const config: RelevanceConfigInput = { ...options.config, seed: options.seed };
  const backend = await ensureTfBackend(options.backends[0]);
  log(
    `tfjs backend: ${backend.name} (init ${backend.initMs.toFixed(0)} ms)${backend.fallbackReason ? `, WASM failed: ${backend.fallbackReason}` : ''}`,
  );
  let t = performance.now();
  const vectors = await loadWordVectors({ onProgress: log });
  log(`word vectors: ${vectors.size} words in ${(performance.now() - t).toFixed(0)} ms`);
  const results: DatasetResult[] = [];
  for (const name of options.datasets) {
    t = performance.now();
    const data = cutDataset(name, options.relevantPages, options.seed, vectors);
    const relevant = data.documents.filter((d) => d.label === 1).length;
    log(
      `\n${name}: ${data.documents.length} pages (${relevant} relevant), ${data.anchors.length} anchors, cut in ${(performance.now() - t).toFixed(0)} ms`,
    );
    const evaluations = await crossValidate(data.documents, {
      models: options.models,
      folds: options.folds,
      config,
      vectors,
      topic: { keywords: data.seedKeywords },
      onProgress: (p) => {
        if (p.valLoss !== undefined && (p.model === 'kwbilstm' || p.model === 'bilstm')) {
          log(
            `    ${p.model} epoch ${p.epoch}: loss ${p.trainLoss?.toFixed(4)} val ${p.valLoss.toFixed(4)}${p.isBest ? ' *' : ''}`,
          );
        }
      },
      onFold: (f) =>
        log(
          `  ${f.model} fold ${f.fold}/${f.folds}: F-macro ${(100 * f.metrics.macroF1).toFixed(1)} (${(f.trainMs / 1000).toFixed(1)} s)`,
        ),
    });
    log(formatTable1(evaluations, name));
    const throughput: Throughput[] = [];
    for (const model of options.models) {
      for (const tp of await measureThroughput(data, model, options.backends, config)) {
        throughput.push(tp);
        log(
          `  ${tp.model}${tp.backend ? ` (${tp.backend})` : ''}: ${Math.round(tp.pagesPerSec)} pages/s, ${Math.round(tp.anchorsPerSec)} anchors/s, anchor F-macro ${(100 * tp.anchorMacroF1).toFixed(1)}`,
        );
      }
    }
    const page = throughput.find((x) => x.model === DEFAULT_PAGE_MODEL && x.backend !== 'cpu');
    const anchor = throughput.find((x) => x.model === DEFAULT_ANCHOR_MODEL && x.backend !== 'cpu');
    const crawlPagesPerSec =
      page && anchor ? 1 / (1 / page.pagesPerSec + data.meanLinksPerPage / anchor.anchorsPerSec) : Number.NaN;
    log(
      `  crawl loop (${DEFAULT_PAGE_MODEL} pages + ${DEFAULT_ANCHOR_MODEL} anchors): ${Math.round(crawlPagesPerSec)} pages/s`,
    );
    results.push({
      dataset: name,
      documents: data.documents.length,
      relevant,
      anchors: data.anchors.length,
      meanLinksPerPage: data.meanLinksPerPage,
      evaluations,
      throughput,
      crawlPagesPerSec,
    });
  }
  mkdirSync(options.outDir, { recursive: true });
  const record = {
    command: process.argv.join(' '),
    commit: gitCommit(),
    options: { ...options, log: undefined },
    backend,
    results,
  };
  writeFileSync(join(options.outDir, 'relevance-bench.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(options.outDir, 'relevance-bench.md'), markdown(results, options));
  log(`\nresults written to ${options.outDir}`);
  return results;
}
