/**
 * `tres train`: trains one relevance classifier on folders of relevant and irrelevant documents
 * (or JSON lines) with early stopping on a validation split and a progress bar, and saves it to
 * a folder with `training.json` (full config, seed, keywords, timings).
 */
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/index.js';
import type { DatasetSource, RelevanceConfigInput } from '../../relevance/index.js';
import {
  createProgressBar,
  DEFAULT_PAGE_MODEL,
  MODEL_NAMES,
  parseModelName,
  type TopicSpec,
  trainToFolder,
} from '../../relevance/index.js';
import { readWordList } from '../../text/index.js';
import { labelledDocuments } from '../label-sources.js';
import { formatTrainReport } from '../train-report.js';

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

/** Share of each class `tres train` holds out to measure the model. */
export const DEFAULT_HOLDOUT = 0.2;

/** Flags of `tres train` as commander gives them. */
type TrainFlags = RelevanceCliOptions & {
  model: string;
  out: string;
  labels?: string;
  crawl?: string;
  /** A fraction as typed, or false for --no-holdout, or true (the default). */
  holdout?: string | boolean;
  /** false for --no-refit (commander names the flag's value after it). */
  refit?: boolean;
};

/** --holdout as a fraction, or false for --no-holdout. @throws ConfigError for a bad fraction. */
function holdoutOf(value: string | boolean | undefined): number | false {
  if (value === false) return false;
  if (value === undefined || value === true) return DEFAULT_HOLDOUT;
  const n = Number(value);
  if (!(n > 0 && n < 0.9)) {
    throw new ConfigError(`--holdout must be a fraction above 0 and below 0.9 (e.g. 0.2), got "${value}"`);
  }
  return n;
}

/** Registers `tres train`. */
export function registerTrainCommand(program: Command): void {
  const command = program
    .command('train')
    .description('train a relevance classifier (the crawl reward) and save it to a folder')
    .addOption(
      new Option('--model <name>', 'classifier').choices([...MODEL_NAMES]).default(DEFAULT_PAGE_MODEL),
    )
    .requiredOption('--out <dir>', 'folder to save the model to (created; files replaced)')
    .option(
      '--labels <file>',
      'labels you have: one "TARGET LABEL" per line, TARGET a file (relative to FILE) or a URL of --crawl, LABEL relevant or irrelevant',
    )
    .option(
      '--crawl <dir>',
      'a crawl folder: with --labels, where URLs are read from; alone, train on the labels given in its dashboard',
    )
    .option(
      '--holdout <fraction>',
      `share of each class held out of training to measure the model (default: ${DEFAULT_HOLDOUT})`,
    )
    .option('--no-holdout', 'train on every document; nothing says how good the model is')
    .option(
      '--no-refit',
      'save the model the held-out share measured (trained on the rest) instead of training it again on every document (which takes as long again)',
    );
  addRelevanceOptions(command)
    .addHelpText(
      'after',
      '\nModels: svm (ACHE: linear SVM on TF-IDF; the default, best measured on the DocWeb), kwbilstm (BiLSTM + keyword\n' +
        "inputs, needs --keywords; the papers' reward), bilstm (ablation),\n" +
        'nb (multinomial naive Bayes), fast (mean word vector + keyword features, logistic regression).\n' +
        `The model is trained on ${100 - DEFAULT_HOLDOUT * 100}% of each class and scored on the rest: precision, recall and F1 of\n` +
        'the relevant class on pages it never saw are printed, with a warning when they are poor; then it is\n' +
        'trained again on every document and saved (--no-refit: the measured model is saved).\n' +
        'Examples:\n  tres train --relevant data/rel --irrelevant data/irr --keywords seeds.txt --model kwbilstm --out models/hw\n' +
        '  tres train --labels my-labels.tsv --out models/mine          # files listed with their labels\n' +
        "  tres train --crawl crawl1 --out models/from-crawl1           # the labels given in crawl1's dashboard",
    )
    .action(async (opts: TrainFlags) => {
      const name = parseModelName(opts.model);
      const holdout = holdoutOf(opts.holdout);
      const fromLabels = opts.labels !== undefined || opts.crawl !== undefined;
      if (fromLabels && (opts.relevant || opts.irrelevant || opts.data)) {
        throw new ConfigError('give either --labels/--crawl or --relevant/--irrelevant/--data, not both');
      }
      const topic = topicSpec(opts);
      const documents = fromLabels
        ? labelledDocuments(
            {
              ...(opts.labels !== undefined ? { labels: opts.labels } : {}),
              ...(opts.crawl !== undefined ? { crawl: opts.crawl } : {}),
              isSkippingBad: opts.skipBad === true,
            },
            (line) => console.error(`tres: warning: ${line}`),
          )
        : undefined;
      const trained = await trainToFolder({
        model: name,
        source: datasetSource(opts),
        ...(documents ? { documents } : {}),
        holdout,
        shouldRefit: opts.refit !== false,
        outDir: opts.out,
        isSkippingBad: opts.skipBad === true,
        ...(topic ? { topic } : {}),
        config: configInput(opts),
        ...(opts.backend ? { backend: opts.backend } : {}),
        command: process.argv.slice(2).join(' '),
        log: (line) => console.error(line),
        onProgress: createProgressBar(process.stderr),
      });
      console.log(`saved ${name} to ${opts.out} (trained in ${(trained.trainMs / 1000).toFixed(1)} s)`);
      const report = formatTrainReport(
        trained.heldOut,
        trained.documents,
        trained.relevant,
        holdout,
        trained.trainedOn,
      );
      for (const line of report.lines) console.log(line);
      for (const warning of report.warnings) console.error(`tres: warning: ${warning}`);
    });
}
