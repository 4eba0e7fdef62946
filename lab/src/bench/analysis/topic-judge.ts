/**
 * The crawl benchmark's judge for any topic file: the sample and the linear SVM that
 * `npm run bench -- crawl` makes for each of its topics (`ensureTopicReward`: 1,000 relevant and
 * 9,000 irrelevant DocWeb pages drawn mixed with seed 1, trained on all of them), for a topic the
 * benchmark does not run, such as the checks in results/coverage-strategy/held-out/. Prints the
 * model folder, to pass to `npm run lab -- bench crawl --model`.
 *
 *   npx vite-node lab/src/bench/analysis/topic-judge.ts -- TOPIC_FILE MODELS_DIR [--cache DIR]
 *
 * The model goes to MODELS_DIR/<topic name>-svm, its sample to MODELS_DIR/samples/<topic name>;
 * a model already there is kept. --cache defaults to the DocWeb cache of `npm run lab -- docweb`
 * ($TRES_CACHE_DIR/docweb). About 30 seconds a topic.
 */
import { parseArgs } from 'node:util';
import { ensureTopicReward } from '../crawl/topic-reward.js';

const { positionals, values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { cache: { type: 'string' } },
  allowPositionals: true,
});
const [topicFile, modelsDir] = positionals;
if (topicFile === undefined || modelsDir === undefined) {
  console.error(
    'usage: npx vite-node lab/src/bench/analysis/topic-judge.ts -- TOPIC_FILE MODELS_DIR [--cache DIR]',
  );
  process.exit(2);
}
const dir = await ensureTopicReward({ topicFile, modelsDir, cacheDir: values.cache, log: console.error });
console.log(dir);
