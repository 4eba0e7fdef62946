/**
 * The crawl benchmark (`npm run lab -- bench crawl`, `npm run bench -- crawl`): every strategy x domain
 * limit x single-seed run on a topic's web, measured by ground truth and by the crawler's own
 * classifier, written as JSON, CSV, SVG plots and a Markdown report in the paper's Table 3
 * layout. Runs are taken run index first (run 0 of every configuration, then run 1, ...) so a
 * benchmark stopped early still covers every configuration; each finished run is stored at once
 * and skipped when the benchmark is started again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageJudge } from 'tres-crawler';
import { benchEnv } from '../bench-env.js';
import { crawlCharts, crawlReport } from '../report/index.js';
import {
  clearRunFiles,
  curvesCsv,
  type RunSetting,
  readRunFiles,
  runsCsv,
  type StoredRun,
  tableCsv,
  writeRunFile,
} from './crawl-bench-files.js';
import {
  type CrawlBenchOptions,
  configLabel,
  type ResolvedCrawlBenchOptions,
  resolveCrawlBenchOptions,
} from './crawl-bench-options.js';
import { BENCH_CRAWLER_SETTINGS, type RunResult, runOnce, seedOfRun } from './crawl-bench-run.js';
import { type ConfigRow, summarizeRuns } from './crawl-bench-stats.js';
import { type BenchTopic, type BenchWeb, openBenchWeb } from './crawl-bench-topic.js';
import { userJudge } from './user-judge.js';

/** What a finished (or resumed) benchmark produced. */
export interface CrawlBenchResult {
  outDir: string;
  /** Every run, stored earlier or made now, in configuration order. */
  runs: RunResult[];
  rows: ConfigRow[];
  /** Runs made by this call (the rest were found in the out folder). */
  newRuns: number;
  /** Paths of the files written. */
  files: string[];
}

/** The crawler's version, in the repository root's package.json (the same path from lab/src/ and lab/dist/). */
function packageVersion(): string {
  try {
    const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function makeJudge(o: ResolvedCrawlBenchOptions, web: BenchWeb) {
  const topic = web.topic;
  if (o.userJudge) return userJudge(o.userJudge, web);
  if (o.modelDir === false && o.isTruthReward) {
    const { KeywordJudge } = await import('tres-crawler');
    const keywords = new KeywordJudge({ keywords: topic.keywords });
    return {
      judge: {
        name: 'truth+keywords',
        scorePages: async (pages) => Float32Array.from(pages, (p) => (topic.labelOf(p.url) ? 1 : 0)),
        scoreAnchors: (anchors) => keywords.scoreAnchors(anchors),
      } satisfies PageJudge,
      name: 'truth+keywords',
      description: `the topic's ground truth (an upper-bound experiment), links scored by the topic's keywords`,
    };
  }
  if (o.modelDir === false)
    return {
      judge: undefined,
      name: 'keywords',
      description: `the stand-in keyword judge with the topic's ${topic.keywords.length} keywords (${topic.keywords.join(', ')})`,
    };
  // Loaded on demand: the relevance room pulls in TensorFlow, which keyword runs do not need.
  const { loadModel } = await import('tres-crawler/internals');
  const model = await loadModel(o.modelDir);
  if (o.isTruthReward) {
    const truth: PageJudge = {
      name: `truth+${model.name}`,
      scorePages: async (pages) => Float32Array.from(pages, (p) => (topic.labelOf(p.url) ? 1 : 0)),
      scoreAnchors: (anchors) => model.scoreAnchors(anchors),
    };
    return {
      judge: truth,
      name: `truth+model:${resolve(o.modelDir)}`,
      description: `the topic's ground truth (an upper-bound experiment), links scored by the ${model.name} model in ${o.modelDir}`,
    };
  }
  const judge: PageJudge = model;
  return {
    judge,
    name: `model:${resolve(o.modelDir)}`,
    description: `the ${model.name} model in ${o.modelDir}${modelProvenance(o.modelDir)}`,
  };
}

/**
 * How a model folder was made, from the `training.json` that `tres train` writes and the
 * `sample.json` of a `npm run lab -- docweb sample` folder it trained on, so that the report says how to
 * make the reward again; empty when the files are not there.
 */
export function modelProvenance(modelDir: string): string {
  const read = (file: string): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const training = read(join(modelDir, 'training.json'));
  if (typeof training?.command !== 'string') return '';
  let text = `, trained by \`tres ${training.command}\``;
  const dataset = training.dataset as { relevantDir?: unknown } | undefined;
  const sample =
    typeof dataset?.relevantDir === 'string'
      ? read(join(dirname(dataset.relevantDir), 'sample.json'))
      : undefined;
  if (sample && typeof sample.topicFile === 'string') {
    const flag = (name: string, key: string) =>
      sample[key] === undefined ? [] : [`--${name} ${String(sample[key])}`];
    const flags = [
      ...flag('relevant', 'relevant'),
      ...flag('ratio', 'ratio'),
      ...flag('seed', 'seed'),
      // Samples made before these options existed were drawn by site from other sites.
      `--from ${String(sample.irrelevantFrom ?? 'other-sites')}`,
      `--draw ${String(sample.draw ?? 'by-site')}`,
      ...flag('max-site-share', 'maxSiteShare'),
    ];
    text += ` on a sample drawn by \`npm run lab -- docweb sample --topic ${sample.topicFile} --cache ${String(sample.cacheDir)} ${flags.join(' ')}\``;
  }
  return text;
}

/**
 * Runs the benchmark (skipping runs already stored in the out folder) and writes its files.
 * @throws ConfigError for bad options, an invalid topic, a missing DocWeb cache, or an out folder
 *   holding runs made with another setting.
 */
export async function runCrawlBench(options: CrawlBenchOptions): Promise<CrawlBenchResult> {
  const o = resolveCrawlBenchOptions(options);
  const web = await openBenchWeb(o.topicFile, o.cacheDir ? { cacheDir: o.cacheDir } : {});
  try {
    const topic = web.topic;
    const judge = await makeJudge(o, web);
    const setting: RunSetting = {
      topic: topic.name,
      maxPages: o.maxPages,
      concurrency: o.concurrency,
      curvePoints: o.curvePoints,
      relevanceThreshold: o.relevanceThreshold,
      judge: judge.name,
      ...(o.isOpenWorld ? { world: 'open' } : {}),
    };
    if (o.isFresh) clearRunFiles(o.outDir);
    const stored = new Map<string, StoredRun>();
    const found = readRunFiles(o.outDir, setting, (run) => seedOfRun(topic.seeds, run));
    for (const s of found.runs) stored.set(key(s.result.strategy, s.result.domainLimit, s.result.run), s);
    const staleByRun = new Map<number, StoredRun[]>();
    for (const s of found.stale) staleByRun.set(s.result.run, [...(staleByRun.get(s.result.run) ?? []), s]);
    for (const [run, runs] of [...staleByRun].sort(([a], [b]) => a - b))
      o.log(
        `run ${run}: ${runs.length} stored runs started from ${runs[0]!.result.seedUrl}, the topic now gives ${seedOfRun(topic.seeds, run)}: they run again`,
      );
    // The command as the user ran it (`npm run lab -- bench crawl ...`): benchEnv's `npm run bench -- ARGV`
    // does not run for a CLI invocation.
    const env = { ...benchEnv(), version: packageVersion(), ...(o.command ? { command: o.command } : {}) };
    const total = o.strategies.length * o.domainLimits.length * o.runs;
    const wanted = (s: StoredRun) =>
      o.strategies.includes(s.result.strategy) &&
      o.domainLimits.includes(s.result.domainLimit) &&
      s.result.run < o.runs;
    let done = [...stored.values()].filter(wanted).length;
    o.log(
      `crawl bench ${topic.name}: ${o.strategies.length} strategies x ${o.domainLimits.length} domain limits x ${o.runs} runs = ${total} runs of ${o.maxPages} pages on ${web.description}${done > 0 ? `; ${done} already in ${o.outDir} (skipped)` : ''}`,
    );
    let newRuns = 0;
    let files: string[] = [];
    const write = () => {
      files = writeOutputs(
        o,
        web.description,
        judge.description,
        topic,
        env,
        [...stored.values()].filter(wanted),
      );
    };
    for (let run = 0; run < o.runs; run++) {
      for (const strategy of o.strategies) {
        for (const domainLimit of o.domainLimits) {
          if (stored.has(key(strategy, domainLimit, run))) continue;
          const result = await runOnce({
            topic,
            strategy,
            domainLimit,
            run,
            maxPages: o.maxPages,
            concurrency: o.concurrency,
            curvePoints: o.curvePoints,
            relevanceThreshold: o.relevanceThreshold,
            net: web.net,
            urlFilter: web.urlFilter,
            judge: judge.judge,
            answers: o.userJudge?.answers ?? 0,
            ...('isRetrainedOnAnswers' in judge && judge.isRetrainedOnAnswers
              ? { isRetrainedOnAnswers: true }
              : {}),
            servedHosts: web.servedHosts,
            isClosedWorld: !o.isOpenWorld,
            ...(web.hasPage ? { hasPage: web.hasPage } : {}),
            ...(o.keepStoresDir
              ? { keepStoreIn: join(o.keepStoresDir, `${configLabel(strategy, domainLimit)}__run${run}`) }
              : {}),
          });
          const entry: StoredRun = { setting, commit: env.commit, result };
          writeRunFile(o.outDir, entry);
          stored.set(key(strategy, domainLimit, run), entry);
          newRuns++;
          done++;
          o.log(`[${done}/${total}] ${describeRun(result)}`);
          write();
        }
      }
    }
    if (newRuns === 0) write();
    const runs = orderRuns(
      [...stored.values()].filter(wanted).map((s) => s.result),
      o,
    );
    o.log(`crawl bench ${topic.name}: report ${join(o.outDir, 'report.md')}`);
    return {
      outDir: o.outDir,
      runs,
      rows: summarizeRuns(runs, o.strategies, o.domainLimits),
      newRuns,
      files,
    };
  } finally {
    await web.close();
  }
}

function key(strategy: string, domainLimit: string, run: number): string {
  return `${strategy}\u0000${domainLimit}\u0000${run}`;
}

function orderRuns(runs: RunResult[], o: ResolvedCrawlBenchOptions): RunResult[] {
  const rank = (r: RunResult) =>
    (o.strategies.indexOf(r.strategy) * o.domainLimits.length + o.domainLimits.indexOf(r.domainLimit)) *
      o.runs +
    r.run;
  return runs.sort((a, b) => rank(a) - rank(b));
}

/** The progress line of a finished run. */
export function describeRun(r: RunResult): string {
  const leaves = r.finalStats['frontier/leaves'];
  return [
    `${configLabel(r.strategy, r.domainLimit)} run ${r.run} (${r.seedUrl}):`,
    `${r.steps} pages in ${(r.timing.elapsedMs / 1000).toFixed(1)} s (${r.timing.pagesPerSec.toFixed(0)} p/s)`,
    `| HR ${(r.harvestRate * 100).toFixed(1)}% (classifier ${(r.classifierHarvestRate * 100).toFixed(1)}%)`,
    `| relevant domains ${r.relevantDomains}`,
    r.linksDiscovered
      ? `| links out of the web ${((100 * (r.linksOutOfWeb ?? 0)) / r.linksDiscovered).toFixed(1)}%${r.isClosedWorld ? ' (dropped)' : ''}`
      : '',
    `| frontier ${r.finalStats['frontier/size'] ?? '?'}${leaves === undefined ? '' : `, leaves ${leaves}`}`,
    r.stopReason === 'max-pages' ? '' : `| stopped: ${r.stopReason}`,
  ]
    .filter(Boolean)
    .join(' ');
}

function writeOutputs(
  o: ResolvedCrawlBenchOptions,
  webDescription: string,
  judgeDescription: string,
  topic: BenchTopic,
  env: ReturnType<typeof benchEnv> & { version: string },
  stored: StoredRun[],
): string[] {
  const runs = orderRuns(
    stored.map((s) => s.result),
    o,
  );
  const rows = summarizeRuns(runs, o.strategies, o.domainLimits);
  const charts = crawlCharts({
    topic: topic.name,
    strategies: o.strategies,
    domainLimits: o.domainLimits,
    runs,
    rows,
  });
  const runCommits = [...new Set(stored.map((s) => s.commit))];
  const { log: _log, ...setting } = o;
  const crawler = {
    ...BENCH_CRAWLER_SETTINGS,
    minDelayMs: 0,
    respectRobotsTxt: true,
    urlFilter: 'BENCH_URL_FILTER',
  };
  const report = crawlReport({
    topic: topic.name,
    topicFile: topic.file,
    webDescription,
    judgeDescription,
    strategies: o.strategies,
    domainLimits: o.domainLimits,
    maxPages: o.maxPages,
    runsPerConfig: o.runs,
    concurrency: o.concurrency,
    seeds: topic.seeds,
    rows,
    runs,
    charts,
    command: o.command,
    env,
    runCommits,
  });
  mkdirSync(o.outDir, { recursive: true });
  const out: [string, string][] = [
    [
      'results.json',
      `${JSON.stringify({ env, options: setting, crawler, topic: { name: topic.name, file: topic.file, seeds: topic.seeds, keywords: topic.keywords }, web: webDescription, judge: judgeDescription, runCommits, rows, runs }, null, 1)}\n`,
    ],
    ['runs.csv', runsCsv(runs)],
    ['curves.csv', curvesCsv(runs)],
    ['table.csv', tableCsv(rows)],
    ...charts.map((c): [string, string] => [c.file, c.svg]),
    ['report.md', report],
  ];
  return out.map(([name, text]) => {
    const path = join(o.outDir, name);
    writeFileSync(path, text);
    return path;
  });
}
