/**
 * Loading any saved relevance model: reads the kind from `model.json` and hands the folder to
 * that model's loader (word vectors come from the shared cache when the model needs them).
 */
import { ConfigError } from '../common/index.js';
import type { WordVectors } from '../text/index.js';
import { loadWordVectors } from '../text/index.js';
import { BiLstmModel } from './bilstm-model.js';
import { FastModel } from './fast-model.js';
import { LinearSvmModel } from './linear-svm.js';
import { readModelFiles } from './model-files.js';
import { NaiveBayesModel } from './naive-bayes.js';
import type { RelevanceModel } from './types.js';

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  /** Word vectors. @default loaded from the cache when the model needs them */
  vectors?: WordVectors;
}

/**
 * Loads a model saved with `model.save(dir)`; it scores exactly as the saved one did.
 * @throws ConfigError naming the folder if it is missing, damaged or of an unknown kind
 */
export async function loadModel(dir: string, options: LoadModelOptions = {}): Promise<RelevanceModel> {
  const { manifest } = readModelFiles(dir);
  const vectors = async () => options.vectors ?? (await loadWordVectors());
  switch (manifest.name) {
    case 'nb':
      return NaiveBayesModel.load(dir);
    case 'svm':
      return LinearSvmModel.load(dir);
    case 'fast':
      return FastModel.load(dir, await vectors());
    case 'kwbilstm':
    case 'bilstm':
      return BiLstmModel.load(dir, await vectors());
    default:
      throw new ConfigError(`${dir}: unknown model kind ${String(manifest.name)}`, {
        context: { file: dir },
      });
  }
}
