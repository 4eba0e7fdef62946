/**
 * The reward model of a DocWeb topic for the crawl benchmark, made once and kept: a training
 * sample drawn from the built web as a crawl meets its pages (`npm run lab -- docweb sample
 * --relevant 1000 --draw mixed`, its other options at their defaults) and a model trained on it
 * (`tres train --model svm` with the topic's keywords). The folder's `training.json` records both
 * commands, and the benchmark report quotes them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ModelName } from 'tres-crawler/internals';
import { trainToFolder } from 'tres-crawler/internals';
import { defaultCacheDir, loadTopic, readHubIndex, sampleTrainingData } from '../../docweb/index.js';

/**
 * How the benchmark draws a topic's training pages: 1,000 relevant pages, half drawn by page and
 * half by site (9 irrelevant pages for each). A judge drawn by page alone (500 pages, the sampler's
 * defaults) saw few of a topic's short home and hub pages and
 * called 14-35% of them relevant, where the mixed draw calls 62-73% (results/coverage-strategy/
 * mixed-judges.md); the benchmark uses this recipe for every crawler.
 */
export const BENCH_SAMPLE = Object.freeze({ relevant: 1000, draw: 'mixed' } as const);

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
  const sampleDir = resolve(o.modelsDir, 'samples', topic.name);
  const log = o.log ?? (() => {});
  if (existsSync(join(modelDir, 'model.json'))) {
    const drawn = drawnWith(join(sampleDir, 'sample.json'));
    if (drawn === undefined || (drawn.relevant === BENCH_SAMPLE.relevant && drawn.draw === BENCH_SAMPLE.draw))
      return modelDir;
    log(
      `${topic.name}: the model in ${modelDir} was trained on ${drawn.relevant} relevant pages drawn ${drawn.draw}; drawing ${BENCH_SAMPLE.relevant} ${BENCH_SAMPLE.draw} and training again`,
    );
  }
  const sample = sampleTrainingData({
    topic,
    outDir: sampleDir,
    cacheDir,
    shouldOverwrite: true,
    ...BENCH_SAMPLE,
  });
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
    // Every sampled page is trained on and nothing is measured (trainToFolder holds none out
    // unless told): the command that does the same.
    command: `train --model ${model} --out ${modelDir} --relevant ${join(sampleDir, 'relevant')} --irrelevant ${join(sampleDir, 'irrelevant')} --keywords ${keywords} --skip-bad --no-holdout`,
    log,
  });
  log(`${topic.name}: trained ${model} in ${(trained.trainMs / 1000).toFixed(1)} s into ${modelDir}`);
  return modelDir;
}

/** The relevant pages wanted and the draw of a sample's `sample.json` (undefined: none, or unreadable). */
function drawnWith(file: string): { relevant: number; draw: string } | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const { relevant, draw } = JSON.parse(readFileSync(file, 'utf8')) as { relevant?: number; draw?: string };
    // A sample from before the draw was an option was drawn by page.
    return typeof relevant === 'number' ? { relevant, draw: draw ?? 'by-page' } : undefined;
  } catch {
    return undefined;
  }
}
