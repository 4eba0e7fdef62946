/**
 * `tres evaluate`: stratified k-fold cross-validation of relevance classifiers on the same
 * folds, printed in the layout of Table 1 of the TRES papers (precision and recall of the
 * relevant class, macro F1), with training time and page-scoring throughput.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../../common/index.js';
import {
  crossValidate,
  ensureTfBackend,
  formatTable1,
  loadDataset,
  MODEL_NAMES,
  parseModelName,
  usesVectors,
} from '../../relevance/index.js';
import { loadWordVectors } from '../../text/index.js';
import {
  addRelevanceOptions,
  configInput,
  datasetSource,
  type RelevanceCliOptions,
  topicSpec,
} from './train.js';

/** Registers `tres evaluate`. */
export function registerEvaluateCommand(program: Command): void {
  const command = program
    .command('evaluate')
    .description('cross-validate relevance classifiers (stratified k-fold) and print Table-1 metrics')
    .option('--models <list>', `comma-separated models (${MODEL_NAMES.join(', ')})`, MODEL_NAMES.join(','))
    .option('--folds <k>', 'number of folds', '5')
    .option('--json-out <file>', 'also write the results as JSON');
  addRelevanceOptions(command)
    .addHelpText(
      'after',
      '\nExample:\n  tres evaluate --relevant data/rel --irrelevant data/irr --keywords seeds.txt --models kwbilstm,svm,nb',
    )
    .action(async (opts: RelevanceCliOptions & { models: string; folds: string; jsonOut?: string }) => {
      const models = opts.models.split(',').map((m) => parseModelName(m.trim()));
      const folds = Number(opts.folds);
      if (!Number.isInteger(folds) || folds < 2)
        throw new ConfigError(`--folds must be a whole number >= 2, got "${opts.folds}"`);
      let topic = topicSpec(opts);
      if (topic === undefined && models.includes('kwbilstm')) {
        console.error('no --keywords: skipping kwbilstm (it needs topic keywords)');
        topic = undefined;
      }
      const chosen = topic === undefined ? models.filter((m) => m !== 'kwbilstm') : models;
      if (chosen.length === 0) throw new ConfigError('no model left to evaluate');
      const docs = loadDataset(datasetSource(opts), { isSkippingBad: opts.skipBad === true });
      const relevant = docs.filter((d) => d.label === 1).length;
      if (relevant < folds || docs.length - relevant < folds) {
        throw new ConfigError(
          `each class needs at least ${folds} documents for ${folds}-fold cross-validation`,
        );
      }
      if (chosen.some((m) => m === 'kwbilstm' || m === 'bilstm')) {
        const backend = await ensureTfBackend(opts.backend);
        if (backend.fallbackReason)
          console.error(`WASM backend failed (${backend.fallbackReason}); using cpu`);
      }
      const vectors =
        chosen.some(usesVectors) || topic
          ? await loadWordVectors({ onProgress: (m) => console.error(m) })
          : undefined;
      console.error(`${folds}-fold cross-validation on ${docs.length} documents (${relevant} relevant)`);
      const results = await crossValidate(docs, {
        models: chosen,
        folds,
        config: configInput(opts),
        ...(topic ? { topic } : {}),
        ...(vectors ? { vectors } : {}),
        onFold: (f) =>
          console.error(
            `  ${f.model} fold ${f.fold}/${f.folds}: F-macro ${(100 * f.metrics.macroF1).toFixed(1)} (${(f.trainMs / 1000).toFixed(1)} s)`,
          ),
      });
      console.log(formatTable1(results, `${docs.length} docs, ${relevant} relevant`));
      if (opts.jsonOut) {
        writeFileSync(
          opts.jsonOut,
          `${JSON.stringify({ command: process.argv.slice(2).join(' '), folds, results }, null, 2)}\n`,
        );
      }
    });
}
