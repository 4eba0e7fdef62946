/**
 * `tres train`: trains one relevance classifier on folders of relevant and irrelevant documents
 * (or JSON lines) with early stopping on a validation split and a progress bar, and saves it to
 * a folder with `training.json` (full config, seed, keywords, timings).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/errors.js';
import type { RelevanceConfigInput } from '../../relevance/config.js';
import { type DatasetSource, loadDataset } from '../../relevance/dataset.js';
import { DEFAULT_PAGE_MODEL } from '../../relevance/defaults.js';
import { topicToJson } from '../../relevance/features.js';
import { createProgressBar } from '../../relevance/progress.js';
import { ensureTfBackend } from '../../relevance/tf-backend.js';
import { parseModelName, type TopicSpec, trainModel, usesVectors } from '../../relevance/training.js';
import { MODEL_NAMES } from '../../relevance/types.js';
import { loadWordVectors } from '../../text/vector-cache.js';
import { readWordList } from '../../text/word-list-file.js';

/** Options shared by `tres train` and `tres evaluate`. */
export interface RelevanceCliOptions {
  relevant?: string;
  irrelevant?: string;
  data?: string[];
  keywords?: string;
  keyphrases?: string;
  expanded?: boolean;
  seed?: string;
  maxEpochs?: number;
  maxLen?: number;
  units?: number;
  backend?: 'wasm' | 'cpu';
  skipBad?: boolean;
}

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`--${name} must be a whole number >= 1, got "${value}"`);
  return n;
};

/** Adds the data, keyword and hyperparameter options common to train and evaluate. */
export function addRelevanceOptions(command: Command): Command {
  return command
    .option('--relevant <dir>', 'folder of relevant documents (HTML or text, recursive)')
    .option('--irrelevant <dir>', 'folder of irrelevant documents (papers: about 9 times the relevant ones)')
    .option(
      '--data <file...>',
      'JSON-lines files instead of folders: {"url","title"?,"text","label":1|0} per line',
    )
    .option(
      '--keywords <file>',
      'topic keywords, one per line: seeds expanded on the relevant documents (Algorithm 1)',
    )
    .option('--keyphrases <file>', 'topic keyphrases, one per line (never expanded)')
    .option(
      '--expanded',
      'the --keywords file is already expanded (from tres keywords --out): do not expand again',
    )
    .option('--seed <seed>', 'seed of every random choice (same seed, same model)', 'tres')
    .option(
      '--max-epochs <n>',
      'upper bound on epochs (early stopping usually ends sooner)',
      positiveInt('max-epochs'),
    )
    .option('--max-len <n>', 'BiLSTM: words kept per text (MAXLEN)', positiveInt('max-len'))
    .option('--units <n>', 'BiLSTM: LSTM units per direction', positiveInt('units'))
    .addOption(
      new Option('--backend <name>', 'TensorFlow.js backend for the BiLSTMs')
        .choices(['wasm', 'cpu'])
        .default('wasm'),
    )
    .option('--skip-bad', 'skip unreadable, empty or non-English documents instead of failing');
}

/** Dataset source from the options. */
export function datasetSource(opts: RelevanceCliOptions): DatasetSource {
  return {
    ...(opts.relevant ? { relevantDir: opts.relevant } : {}),
    ...(opts.irrelevant ? { irrelevantDir: opts.irrelevant } : {}),
    ...(opts.data ? { jsonlFiles: opts.data } : {}),
  };
}

/** The same source with absolute paths. */
function absoluteSource(source: DatasetSource): DatasetSource {
  return {
    ...(source.relevantDir ? { relevantDir: resolve(source.relevantDir) } : {}),
    ...(source.irrelevantDir ? { irrelevantDir: resolve(source.irrelevantDir) } : {}),
    ...(source.jsonlFiles ? { jsonlFiles: source.jsonlFiles.map((f) => resolve(f)) } : {}),
  };
}

/** Topic keywords from the options, if any. */
export function topicSpec(opts: RelevanceCliOptions): TopicSpec | undefined {
  if (!opts.keywords) {
    if (opts.keyphrases) throw new ConfigError('--keyphrases needs --keywords');
    return undefined;
  }
  return {
    keywords: readWordList(opts.keywords, 'keywords'),
    keyphrases: opts.keyphrases ? readWordList(opts.keyphrases, 'keyphrases') : [],
    isExpanded: opts.expanded === true,
  };
}

/** Relevance config overrides from the options. */
export function configInput(opts: RelevanceCliOptions): RelevanceConfigInput {
  const epochs = opts.maxEpochs;
  return {
    seed: opts.seed ?? 'tres',
    bilstm: {
      ...(epochs ? { maxEpochs: epochs } : {}),
      ...(opts.maxLen ? { maxLen: opts.maxLen } : {}),
      ...(opts.units ? { units: opts.units } : {}),
    },
    ...(epochs ? { svm: { maxEpochs: epochs }, fast: { maxEpochs: epochs } } : {}),
  };
}

/** Registers `tres train`. */
export function registerTrainCommand(program: Command): void {
  const command = program
    .command('train')
    .description('train a relevance classifier (the crawl reward) and save it to a folder')
    .addOption(
      new Option('--model <name>', 'classifier').choices([...MODEL_NAMES]).default(DEFAULT_PAGE_MODEL),
    )
    .requiredOption('--out <dir>', 'folder to save the model to (created; files replaced)');
  addRelevanceOptions(command)
    .addHelpText(
      'after',
      '\nModels: svm (ACHE: linear SVM on TF-IDF; the default, best measured on the DocWeb), kwbilstm (BiLSTM + keyword\n' +
        "inputs, needs --keywords; the papers' reward), bilstm (ablation),\n" +
        'nb (multinomial naive Bayes), fast (mean word vector + keyword features, logistic regression).\n' +
        'Example:\n  tres train --relevant data/rel --irrelevant data/irr --keywords seeds.txt --model kwbilstm --out models/hw',
    )
    .action(async (opts: RelevanceCliOptions & { model: string; out: string }) => {
      const name = parseModelName(opts.model);
      const docs = loadDataset(datasetSource(opts), { isSkippingBad: opts.skipBad === true });
      const relevant = docs.filter((d) => d.label === 1).length;
      console.error(
        `training ${name} on ${docs.length} documents (${relevant} relevant, ${docs.length - relevant} irrelevant)`,
      );
      const backend =
        name === 'kwbilstm' || name === 'bilstm' ? await ensureTfBackend(opts.backend) : undefined;
      if (backend?.fallbackReason)
        console.error(`WASM backend failed (${backend.fallbackReason}); using cpu`);
      const vectors =
        usesVectors(name) || opts.keywords
          ? await loadWordVectors({ onProgress: (m) => console.error(m) })
          : undefined;
      const topic = topicSpec(opts);
      const trained = await trainModel(name, docs, {
        config: configInput(opts),
        ...(topic ? { topic } : {}),
        ...(vectors ? { vectors } : {}),
        onProgress: createProgressBar(process.stderr),
      });
      await trained.model.save(opts.out);
      const record = {
        command: process.argv.slice(2).join(' '),
        model: name,
        documents: { total: docs.length, relevant },
        // Where the training documents are (absolute), so relevance feedback can retrain on them.
        dataset: absoluteSource(datasetSource(opts)),
        backend: backend?.name ?? null,
        trainMs: Math.round(trained.trainMs),
        config: trained.config,
        keywords: trained.topic ? topicToJson(trained.topic) : null,
        discoveredKeywords: trained.expansion?.discovered.length ?? null,
      };
      writeFileSync(join(opts.out, 'training.json'), `${JSON.stringify(record, null, 2)}\n`);
      trained.model.dispose();
      console.log(`saved ${name} to ${opts.out} (trained in ${(trained.trainMs / 1000).toFixed(1)} s)`);
    });
}
