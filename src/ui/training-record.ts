/**
 * What retraining needs of the model a crawl started with: `tres train` writes `training.json`
 * beside the model, with the model kind, its topic keywords, and (since relevance feedback) the
 * absolute paths of the documents it was trained on (field `dataset`). A model folder without it
 * gives only its kind (from model.json): retraining then uses the crawl's confident pages.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { RetrainJob } from './retrain-job.js';

/** What `tres train` wrote beside a model (training.json) that retraining needs. */
export function readTrainingRecord(
  modelDir: string,
): { model: string; dataset?: RetrainJob['dataset']; topic?: RetrainJob['topic'] } | undefined {
  let record: {
    model?: string;
    dataset?: RetrainJob['dataset'];
    keywords?: { keywords: string[]; keyphrases: string[] } | null;
  };
  try {
    record = JSON.parse(readFileSync(join(modelDir, 'training.json'), 'utf8'));
  } catch {
    try {
      const manifest = JSON.parse(readFileSync(join(modelDir, 'model.json'), 'utf8')) as { name: string };
      return { model: manifest.name };
    } catch {
      return undefined;
    }
  }
  const out: { model: string; dataset?: RetrainJob['dataset']; topic?: RetrainJob['topic'] } = {
    model: record.model ?? 'nb',
  };
  if (record.dataset) out.dataset = absoluteDataset(record.dataset, modelDir);
  if (record.keywords)
    out.topic = {
      keywords: record.keywords.keywords,
      keyphrases: record.keywords.keyphrases,
      isExpanded: true,
    };
  return out;
}

function absoluteDataset(
  d: NonNullable<RetrainJob['dataset']>,
  base: string,
): NonNullable<RetrainJob['dataset']> {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  return {
    ...(d.relevantDir ? { relevantDir: abs(d.relevantDir) } : {}),
    ...(d.irrelevantDir ? { irrelevantDir: abs(d.irrelevantDir) } : {}),
    ...(d.jsonlFiles ? { jsonlFiles: d.jsonlFiles.map(abs) } : {}),
  };
}
