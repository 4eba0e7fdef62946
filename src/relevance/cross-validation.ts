/**
 * Stratified k-fold cross-validation of several models on the same folds, with the metrics of
 * Table 1 of the TRES papers (precision and recall of the relevant class, macro F1) as the mean
 * over folds, and training and scoring times. Keywords are expanded inside each fold on its
 * training documents only, so no test document leaks into a model.
 */
import { createRng } from '../common/index.js';
import { resolveRelevanceConfig } from './config.js';
import { pageExamples } from './features.js';
import { type ClassificationMetrics, confusion, metricsOf } from './metrics.js';
import { stratifiedFolds } from './split.js';
import { type TrainedModel, type TrainOptions, trainOnExamples } from './training.js';
import type { LabeledDocument, ModelName, TextExample } from './types.js';

/** Options of {@link crossValidate}. */
export interface CrossValidationOptions extends TrainOptions {
  /** Models to evaluate, in report order. */
  models: readonly ModelName[];
  /** Number of folds. @default 5 */
  folds?: number;
  /** Called when a model finishes a fold. */
  onFold?: (info: {
    model: ModelName;
    fold: number;
    folds: number;
    metrics: ClassificationMetrics;
    trainMs: number;
  }) => void;
  /**
   * Called with each fold's trained model before it is disposed (to save it, or to measure its
   * throughput, without training it again); cross-validation waits for it.
   */
  onTrained?: (info: { model: ModelName; fold: number; trained: TrainedModel }) => void | Promise<void>;
}

/** Cross-validation result of one model. */
export interface ModelEvaluation {
  model: ModelName;
  /** Mean over folds. */
  mean: ClassificationMetrics;
  /** Standard deviation over folds. */
  std: ClassificationMetrics;
  perFold: ClassificationMetrics[];
  /** Mean training time per fold, in milliseconds. */
  trainMs: number;
  /** Pages scored per second on the test folds (page-scoring throughput). */
  pagesPerSec: number;
}

function meanStd(values: number[]): [number, number] {
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  const v = values.reduce((a, b) => a + (b - m) ** 2, 0) / values.length;
  return [m, Math.sqrt(v)];
}

/**
 * Runs stratified k-fold cross-validation of each model on `documents`.
 * @throws RangeError if a class has fewer documents than folds; ConfigError from training
 */
export async function crossValidate(
  documents: readonly LabeledDocument[],
  options: CrossValidationOptions,
): Promise<ModelEvaluation[]> {
  const k = options.folds ?? 5;
  const config = resolveRelevanceConfig(options.config);
  const examples = pageExamples(documents);
  const labels = Int8Array.from(documents, (d) => d.label);
  const folds = stratifiedFolds(labels, k, createRng(config.seed).fork('folds'));
  const results: ModelEvaluation[] = [];
  for (const name of options.models) {
    const perFold: ClassificationMetrics[] = [];
    let trainMs = 0;
    let scoreMs = 0;
    let scored = 0;
    for (let f = 0; f < k; f++) {
      const trainIdx: number[] = [];
      const testIdx: number[] = [];
      folds.forEach((fold, i) => {
        (fold === f ? testIdx : trainIdx).push(i);
      });
      const pick = (idx: number[]) => idx.map((i) => examples[i] as TextExample);
      const trained = await trainOnExamples(
        name,
        pick(trainIdx),
        Int8Array.from(trainIdx, (i) => labels[i] as number),
        { ...options, config: { ...options.config, seed: `${config.seed}/fold${f}` } },
      );
      const started = performance.now();
      const probs = await trained.model.scoreExamples(pick(testIdx));
      scoreMs += performance.now() - started;
      scored += testIdx.length;
      trainMs += trained.trainMs;
      const metrics = metricsOf(
        confusion(
          testIdx.map((i) => labels[i] as number),
          probs,
          config.threshold,
        ),
      );
      perFold.push(metrics);
      options.onFold?.({ model: name, fold: f + 1, folds: k, metrics, trainMs: trained.trainMs });
      await options.onTrained?.({ model: name, fold: f + 1, trained });
      trained.model.dispose();
    }
    const keys = ['precision', 'recall', 'macroF1', 'accuracy'] as const;
    const mean = {} as ClassificationMetrics;
    const std = {} as ClassificationMetrics;
    for (const key of keys) [mean[key], std[key]] = meanStd(perFold.map((m) => m[key]));
    results.push({
      model: name,
      mean,
      std,
      perFold,
      trainMs: trainMs / k,
      pagesPerSec: scored / (scoreMs / 1000),
    });
  }
  return results;
}

/** Display names of the models, as in Table 1. */
export const MODEL_TITLES: Record<ModelName, string> = {
  kwbilstm: 'KwBiLSTM',
  bilstm: 'Vanilla BiLSTM',
  svm: "ACHE's SVM (TF-IDF)",
  nb: 'Naive Bayes',
  fast: 'Fast (vectors+keywords LR)',
};

/** Table 1 layout as Markdown: precision and recall of the relevant class and macro F1, in %. */
export function formatTable1(results: readonly ModelEvaluation[], title = 'dataset'): string {
  const pct = (m: number, s: number) => `${(100 * m).toFixed(1)} ± ${(100 * s).toFixed(1)}`;
  const lines = [
    `| Classifier (${title}) | Precision | Recall | F-macro | train s/fold | pages/s |`,
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${MODEL_TITLES[r.model]} | ${pct(r.mean.precision, r.std.precision)} | ${pct(r.mean.recall, r.std.recall)} | ` +
        `${pct(r.mean.macroF1, r.std.macroF1)} | ${(r.trainMs / 1000).toFixed(1)} | ${Math.round(r.pagesPerSec)} |`,
    );
  }
  return lines.join('\n');
}
