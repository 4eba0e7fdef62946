/**
 * The reward model of a DocWeb topic for the crawl benchmark, made once and kept: a training
 * sample drawn from the built web as a crawl meets its pages (`npm run lab -- docweb sample` with its
 * defaults) and a model trained on it (`tres train --model svm` with the topic's keywords). The
 * folder's `training.json` records both commands, and the benchmark report quotes them.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultCacheDir, loadTopic, readHubIndex, sampleTrainingData } from '../../docweb/index.js';
import type { ModelName } from '../../relevance/index.js';
import { trainToFolder } from '../../relevance/index.js';

/** Inputs of {@link ensureTopicReward}. */
export interface TopicRewardOptions {
  topicFile: string;
  /** The built DocWeb. @default `$TRES_CACHE_DIR/docweb` or `~/.cache/tres/docweb` */
  cacheDir?: string;
  /** Where models go (`<topic>-<model>`) and their samples (`samples/<topic>`). */
  modelsDir: string;
  /** @default 'svm' (the default page model, best measured on the DocWeb) */
  model?: ModelName;
  log?: (line: string) => void;
}

/**
 * The model folder for the topic: the one in `modelsDir` if it holds a model, else a new one
 * from a new sample.
 * @throws ConfigError from the sampler (no DocWeb build, a topic that labels nothing) or training
 */
export async function ensureTopicReward(o: TopicRewardOptions): Promise<string> {
  const cacheDir = o.cacheDir ?? defaultCacheDir();
  const model = o.model ?? 'svm';
  const topic = loadTopic(o.topicFile, readHubIndex(cacheDir));
  const modelDir = resolve(o.modelsDir, `${topic.name}-${model}`);
  if (existsSync(join(modelDir, 'model.json'))) return modelDir;
  const log = o.log ?? (() => {});
  const sampleDir = resolve(o.modelsDir, 'samples', topic.name);
  const sample = sampleTrainingData({ topic, outDir: sampleDir, cacheDir, shouldOverwrite: true });
  log(
    `${topic.name}: sampled ${sample.relevant} relevant and ${sample.irrelevant} irrelevant pages into ${sampleDir}`,
  );
  const keywords = join(sampleDir, 'keywords.txt');
  const trained = await trainToFolder({
    model,
    source: { relevantDir: join(sampleDir, 'relevant'), irrelevantDir: join(sampleDir, 'irrelevant') },
    outDir: modelDir,
    isSkippingBad: true,
    topic: { keywords: topic.keywords, keyphrases: [], isExpanded: false },
    command: `train --model ${model} --out ${modelDir} --relevant ${join(sampleDir, 'relevant')} --irrelevant ${join(sampleDir, 'irrelevant')} --keywords ${keywords} --skip-bad`,
    log,
  });
  log(`${topic.name}: trained ${model} in ${(trained.trainMs / 1000).toFixed(1)} s into ${modelDir}`);
  return modelDir;
}
