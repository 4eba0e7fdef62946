/**
 * Trains one relevance model on a dataset and saves it to a folder with `training.json` (the
 * command, the dataset's absolute paths, the full config, keywords and timings): what `tres
 * train` does, and what the crawl benchmark does to make each topic's reward.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadWordVectors } from '../text/vector-cache.js';
import type { RelevanceConfigInput } from './config.js';
import { type DatasetSource, loadDataset } from './dataset.js';
import { topicToJson } from './features.js';
import type { TrainingProgress } from './progress.js';
import { ensureTfBackend, type TfBackendName } from './tf-backend.js';
import { type TopicSpec, trainModel, usesVectors } from './training.js';
import type { ModelName } from './types.js';

/** Inputs of {@link trainToFolder}. */
export interface TrainToFolderOptions {
  model: ModelName;
  source: DatasetSource;
  outDir: string;
  /** Skip unreadable, empty or non-English documents instead of failing. */
  isSkippingBad?: boolean;
  topic?: TopicSpec;
  config?: RelevanceConfigInput;
  /** TensorFlow.js backend for the BiLSTMs. @default 'wasm' */
  backend?: TfBackendName;
  /** The command as the user would type it after `tres ` (recorded in training.json). */
  command: string;
  /** Lines about the work (documents, backend fallback, vectors). */
  log?: (line: string) => void;
  onProgress?: (p: TrainingProgress) => void;
}

/** What {@link trainToFolder} did. */
export interface TrainToFolderResult {
  documents: number;
  relevant: number;
  trainMs: number;
}

/** The same source with absolute paths. */
function absoluteSource(source: DatasetSource): DatasetSource {
  return {
    ...(source.relevantDir ? { relevantDir: resolve(source.relevantDir) } : {}),
    ...(source.irrelevantDir ? { irrelevantDir: resolve(source.irrelevantDir) } : {}),
    ...(source.jsonlFiles ? { jsonlFiles: source.jsonlFiles.map((f) => resolve(f)) } : {}),
  };
}

/**
 * Loads the dataset, trains, saves the model and its `training.json`.
 * @throws ConfigError for a bad dataset (from loadDataset) or configuration
 */
export async function trainToFolder(o: TrainToFolderOptions): Promise<TrainToFolderResult> {
  const log = o.log ?? (() => {});
  const docs = loadDataset(o.source, { isSkippingBad: o.isSkippingBad === true });
  const relevant = docs.filter((d) => d.label === 1).length;
  log(
    `training ${o.model} on ${docs.length} documents (${relevant} relevant, ${docs.length - relevant} irrelevant)`,
  );
  const backend =
    o.model === 'kwbilstm' || o.model === 'bilstm' ? await ensureTfBackend(o.backend ?? 'wasm') : undefined;
  if (backend?.fallbackReason) log(`WASM backend failed (${backend.fallbackReason}); using cpu`);
  const vectors =
    usesVectors(o.model) || o.topic ? await loadWordVectors({ onProgress: (m) => log(m) }) : undefined;
  const trained = await trainModel(o.model, docs, {
    ...(o.config ? { config: o.config } : {}),
    ...(o.topic ? { topic: o.topic } : {}),
    ...(vectors ? { vectors } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  });
  await trained.model.save(o.outDir);
  const record = {
    command: o.command,
    model: o.model,
    documents: { total: docs.length, relevant },
    // Where the training documents are (absolute), so relevance feedback can retrain on them.
    dataset: absoluteSource(o.source),
    backend: backend?.name ?? null,
    trainMs: Math.round(trained.trainMs),
    config: trained.config,
    keywords: trained.topic ? topicToJson(trained.topic) : null,
    discoveredKeywords: trained.expansion?.discovered.length ?? null,
  };
  writeFileSync(join(o.outDir, 'training.json'), `${JSON.stringify(record, null, 2)}\n`);
  trained.model.dispose();
  return { documents: docs.length, relevant, trainMs: trained.trainMs };
}
