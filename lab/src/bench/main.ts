/**
 * `npm run bench -- [PART ...] [--quick] [--cache DIR]`: the benchmarks (never part of `npm test`).
 * Parts: `engine` (throughput and memory against Crawlee; `--strategies a,b`: only those rows, no Crawlee; `--out DIR`), `memory` (bytes per frontier URL of
 * every strategy at 100k, 500k and 1M frontier samples; `--strategies a,b` to choose, `--time-limit S`
 * per strategy, default 180, `--links-per-page N` outlinks per page, default 50), `relevance` (Table-1 metrics and
 * throughput of the five classifiers; `--cache` is the DocWeb cache, as `npm run lab -- docweb --cache`,
 * default `$TRES_CACHE_DIR/docweb`), `crawl` (the oracle and every strategy x the paper's five
 * domain limits x 5 single-seed runs of 3,000 pages on the five DocWeb topics, each with an SVM
 * reward trained once on a sample of the web and kept in `--models DIR`, default
 * `<cache>/bench-models`; then the generated web; resumable),
 * `oracle` (the oracle from every seed of the five DocWeb topics: what the web lets a crawler
 * reach; results/docweb2/oracle-reach.md), `fuzz` (1,000,000 generated inputs for each of
 * normalizeUrl, the URL filter, parseHtml, the meta-refresh parser and the robots.txt matcher),
 * `feedback` (50 labels through the dashboard's API retrain the judge of a DocWeb crawl; precision
 * before and after; results/ui/feedback.md), `ui` (pages/s of the same crawl with and without the
 * dashboard; results/ui/ui-cost.md), `cluster` (pages/s with 1, 2, 4 and 8 `tres worker`
 * processes on a latency-bound web, and the coordinator's ceiling with a profile; prints only,
 * or writes cluster.json/.md to `--out DIR`).
 * Results go to `--out DIR` (default {@link DEFAULT_OUT_DIR}, outside the tracked reports, so a run
 * never dirties the tree): <part>.json and .md (crawl: crawl-<topic>/report.md), `--quick` runs
 * in DIR/quick. A report is committed on purpose: `--out results`, or copy it there.
 */
import { join, resolve } from 'node:path';
import { strategyNames } from 'tres-crawler';
import { splitStrategySpecs } from 'tres-crawler/internals';
import { defaultCacheDir } from '../docweb/index.js';
import {
  ensureTopicReward,
  ORACLE_STRATEGY,
  PAPER_DOMAIN_LIMITS,
  type ResumeVariant,
  runCrawlBench,
  runOracleReach,
  runResumeBench,
} from './crawl/index.js';
import {
  DEFAULT_DECISION_BENCH_OPTIONS,
  runDecisionBench,
  runRlBench,
  runTreeFrontierBench,
} from './decision/index.js';
import {
  DEFAULT_ENGINE_BENCH_OPTIONS,
  runClusterBench,
  runEngineBench,
  runPdfBench,
  runRenderBench,
  runUiCostBench,
} from './engine/index.js';
import { runFuzzBench } from './fuzz/index.js';
import { DEFAULT_LONG_BENCH_OPTIONS, runLongBench } from './long/index.js';
import { DEFAULT_MEMORY_BENCH_OPTIONS, runMemoryBench } from './memory/index.js';
import { runFeedbackBench, runRelevanceBench } from './relevance/index.js';

/** The visible DocWeb topics (data/topics). */
const DOCWEB_TOPICS = [
  'hardware',
  'statistics',
  'programming-languages',
  'typesetting',
  'system-administration',
];

/** The output folder when `--out` is not given (gitignored). */
const DEFAULT_OUT_DIR = 'bench-out';

const PARTS = [
  'engine',
  'memory',
  'decision',
  'tree',
  'rl',
  'relevance',
  'crawl',
  'oracle',
  'fuzz',
  'feedback',
  'ui',
  'pdf',
  'render',
  'cluster',
  'resume',
  'long',
] as const;

/**
 * Removes `flag` and its value from `args` and returns the value (undefined when the flag is
 * absent). With `needs` (what the flag takes, for the message), a missing value or one that is
 * another flag exits with status 2.
 */
function takeValue(args: string[], flag: string, needs?: string): string | undefined {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (needs && (value === undefined || value.startsWith('--'))) {
    console.error(`${flag} needs ${needs}`);
    process.exit(2);
  }
  args.splice(at, 2);
  return value;
}

/** What `npm run bench -- --help` prints (and any part with --help: nothing is run). */
const BENCH_USAGE = `Usage: npm run bench -- [PART ...] [FLAGS]
The benchmarks (never part of npm test). With no PART, every part runs (hours). Each part writes
<part>.json and .md (crawl: crawl-<topic>/report.md) to bench-out/ (not tracked by git) or --out
DIR; commit a report on purpose with --out results.

Parts:
  engine     throughput and memory against Crawlee (--runs N: every row N times, in turn, each round starting one row further on, with medians; --ask coverage: a row of coverage asking questions, answered from the web's labels, retraining its judge)
  memory     bytes per frontier URL of every strategy at 100k, 500k and 1M frontier samples
  decision   time per step of tres as the frontier passes 500,000 samples (the journal's Figure 4)
  tree       the Tree-Frontier's share of each decision, frontier past 500,000 samples
  rl         the Double DQN hot path: Q evaluation and one training step
  relevance  Table-1 metrics and throughput of the five classifiers (DocWeb)
  crawl      the oracle and every strategy x 5 domain limits x 5 runs on the five DocWeb topics, then the generated web (resumable)
  oracle     the oracle from every seed of the five DocWeb topics (results/docweb2/oracle-reach.md)
  fuzz       1,000,000 generated inputs for each of the URL, HTML and robots.txt parsers
  feedback   50 labels through the dashboard's API retrain the judge of a DocWeb crawl
  ui         pages/s of the same crawl with and without the dashboard
  pdf        PDF text extraction: pages/s of one worker and peak memory (made PDFs, the DocWeb's)
  cluster    pages/s with 1, 2, 4 and 8 tres workers over Redis (--workers, --pages-per-worker), the
             coordinator's ceiling (--ceiling-pages), and the balance rows: each worker's share of
             pages and idle time with 4 workers, one of them joining late (--balance: only those)
  render     pages/s rendered in chromium (--render) against plain fetching on a script-built sandbox
  resume     crawls stopped half-way and resumed against uninterrupted ones, per strategy and seed
             (--topic FILE, default the generated web; --model DIR: the judge; --runs N, default 5;
             --variants uninterrupted,resumed,relearn; --strategies, default tres); resumable
  long       RSS, heap, CPU ms/page and pages/s every --sample-every pages of one long crawl per
             strategy (--strategies, default coverage; --max-pages N, default 100000; --web-pages
             N --web-hosts H, default 1000000 and 4000; --profile-at 10000,90000: CPU profiles of
             --profile-pages pages from there; --heap-snapshot-at 30000,90000: V8 heap snapshots of
             the crawl there (OUT/long-heap/); --resume-pages N: time a resume of N more pages;
             --work-dir DIR: keep the crawl stores there, and only resume a store already there;
             --unknown-host reset|misdirected: the answer to the web's dead hosts, default reset)

Flags:
  --quick               a small budget, results in OUT/quick/
  --cache DIR           the DocWeb cache, as npm run lab -- docweb --cache (default: $TRES_CACHE_DIR/docweb)
  --models DIR          crawl: trained reward models (default: <cache>/bench-models)
  --strategies a,b      memory: the strategies to measure (default: all)
  --time-limit S        memory: seconds per strategy (default 180)
  --links-per-page N    memory: outlinks per page (default 50)
  --max-frontier-urls N memory: bound the frontier in memory; links past it wait in a crawl store
  --checkpoints a,b     memory: frontier sizes to measure (default 100000,500000,1000000)
  --workers a,b         cluster: worker counts of the rows (default 1,2,4,8)
  --pages-per-worker N  cluster: pages per worker per row (default 150)
  --ceiling-pages N     cluster: pages of each coordinator-ceiling run (default 1500)
  --balance             cluster: only the balance rows: each worker's share of pages and idle time,
                        4 workers started together and 3 with a fourth joining late
  --max-pages N         long: pages of each crawl (default 100000)
  --sample-every N      long: pages between samples (default 5000)
  --out DIR             write here instead of bench-out/ (results: the tracked reports)
  --help                this text

Example: npm run bench -- memory --quick --strategies tres,bfs --out /tmp/mem`;

/** Flags that take a value (see BENCH_USAGE); --quick and --help take none. */
const VALUE_FLAGS = [
  '--cache',
  '--models',
  '--strategies',
  '--time-limit',
  '--out',
  '--links-per-page',
  '--max-frontier-urls',
  '--checkpoints',
  '--pages-per-worker',
  '--ceiling-pages',
  '--workers',
  '--topic',
  '--model',
  '--runs',
  '--variants',
  '--ask',
  '--max-pages',
  '--sample-every',
  '--web-pages',
  '--web-hosts',
  '--profile-at',
  '--profile-pages',
  '--heap-snapshot-at',
  '--resume-pages',
  '--work-dir',
  '--unknown-host',
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(BENCH_USAGE);
    return;
  }
  const unknownFlags = args.filter(
    (a, i) =>
      a.startsWith('-') &&
      a !== '--quick' &&
      a !== '--balance' &&
      !VALUE_FLAGS.includes(a) &&
      !VALUE_FLAGS.includes(args[i - 1]!),
  );
  if (unknownFlags.length > 0) {
    console.error(`unknown flag ${unknownFlags.join(', ')}; see npm run bench -- --help`);
    process.exit(2);
  }
  const isQuick = args.includes('--quick');
  // cluster: `--balance` runs only the balance rows (each worker's pages and idle time).
  const isBalanceOnly = args.includes('--balance');
  const docwebCacheDir = takeValue(args, '--cache');
  const modelsArg = takeValue(args, '--models', 'a folder: npm run bench -- crawl --models DIR');
  const strategyList = splitStrategySpecs(takeValue(args, '--strategies') ?? '');
  // engine: `--ask coverage` adds a row of each such strategy asking questions.
  const askingList = splitStrategySpecs(takeValue(args, '--ask', 'strategies such as coverage') ?? '');
  // memory: `--time-limit S` per strategy (default 180).
  const timeLimitArg = takeValue(args, '--time-limit', 'a number of seconds > 0');
  const timeLimitSec = timeLimitArg === undefined ? undefined : Number(timeLimitArg);
  if (timeLimitSec !== undefined && !(timeLimitSec > 0)) {
    console.error(`--time-limit needs a number of seconds > 0, got ${timeLimitArg}`);
    process.exit(2);
  }
  const outArg = takeValue(args, '--out', 'a folder: npm run bench -- engine --out DIR');
  // memory: `--max-frontier-urls N` bounds the frontier in memory (links past it wait in a crawl
  // store); `--checkpoints a,b` sets the frontier sizes measured.
  const boundArg = takeValue(args, '--max-frontier-urls', 'an integer >= 1');
  const maxFrontierUrls = boundArg === undefined ? undefined : Number(boundArg);
  if (maxFrontierUrls !== undefined && !(Number.isInteger(maxFrontierUrls) && maxFrontierUrls >= 1)) {
    console.error(`--max-frontier-urls needs an integer >= 1, got ${boundArg}`);
    process.exit(2);
  }
  const checkpointsArg = takeValue(args, '--checkpoints', 'frontier sizes such as 1000000,10000000');
  const memoryCheckpoints = checkpointsArg?.split(',').map(Number);
  if (memoryCheckpoints !== undefined && !memoryCheckpoints.every((n) => Number.isInteger(n) && n >= 1)) {
    console.error(`--checkpoints needs frontier sizes >= 1 such as 1000000,10000000, got ${checkpointsArg}`);
    process.exit(2);
  }
  // memory: `--links-per-page N` (default 50) grows the frontier in fewer steps, so that a
  // strategy whose every step scores its whole frontier (synchronous) reaches 1M in time.
  const linksArg = takeValue(args, '--links-per-page', 'an integer >= 1');
  const linksPerPage = linksArg === undefined ? undefined : Number(linksArg);
  if (linksPerPage !== undefined && !(Number.isInteger(linksPerPage) && linksPerPage >= 1)) {
    console.error(`--links-per-page needs an integer >= 1, got ${linksArg}`);
    process.exit(2);
  }
  // cluster: `--pages-per-worker N` (default 150) and `--ceiling-pages N` (default 1500) shorten a run.
  const perWorker = Number(takeValue(args, '--pages-per-worker', 'an integer >= 1') ?? 150);
  const ceilingPages = Number(takeValue(args, '--ceiling-pages', 'an integer >= 1') ?? 1500);
  if (
    !(Number.isInteger(perWorker) && perWorker >= 1 && Number.isInteger(ceilingPages) && ceilingPages >= 1)
  ) {
    console.error('--pages-per-worker and --ceiling-pages need integers >= 1');
    process.exit(2);
  }
  // cluster: `--workers 1,4` runs only those rows (default 1,2,4,8).
  const workersArg = takeValue(args, '--workers', 'worker counts such as 1,4');
  const workerCounts = workersArg === undefined ? undefined : workersArg.split(',').map(Number);
  if (workerCounts !== undefined && !workerCounts.every((n) => Number.isInteger(n) && n >= 1)) {
    console.error(`--workers needs worker counts >= 1 such as 1,4, got ${workersArg}`);
    process.exit(2);
  }
  // resume: the topic, the judge, the run seeds and the crawls to compare.
  const resumeTopic = takeValue(args, '--topic', 'a topic file');
  const resumeModel = takeValue(args, '--model', 'a model folder');
  const runsArg = takeValue(args, '--runs', 'an integer >= 1');
  const resumeRuns = Number(runsArg ?? 5);
  // engine: `--runs N` runs every row N times, the rows in turn (default 1).
  const engineRounds = Number(runsArg ?? 1);
  const resumeVariants = (takeValue(args, '--variants', 'a list') ?? 'uninterrupted,resumed').split(
    ',',
  ) as ResumeVariant[];
  if (
    !(Number.isInteger(resumeRuns) && resumeRuns >= 1) ||
    !resumeVariants.every((v) => ['uninterrupted', 'resumed', 'relearn'].includes(v))
  ) {
    console.error('--runs needs an integer >= 1; --variants a list of uninterrupted, resumed, relearn');
    process.exit(2);
  }
  // long: the crawl's length, the web, the samples, the profiles and the timed resume.
  const longNumber = (flag: string): number | undefined => {
    const value = takeValue(args, flag, 'an integer >= 1');
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!(Number.isInteger(n) && n >= 1)) {
      console.error(`${flag} needs an integer >= 1, got ${value}`);
      process.exit(2);
    }
    return n;
  };
  const longMaxPages = longNumber('--max-pages');
  const longSampleEvery = longNumber('--sample-every');
  const longWebPages = longNumber('--web-pages');
  const longWebHosts = longNumber('--web-hosts');
  const longProfilePages = longNumber('--profile-pages');
  const longResumePages = longNumber('--resume-pages');
  const longWorkDir = takeValue(args, '--work-dir', 'a folder');
  const longUnknownHost = takeValue(args, '--unknown-host', 'reset or misdirected');
  if (longUnknownHost !== undefined && longUnknownHost !== 'reset' && longUnknownHost !== 'misdirected') {
    console.error(`--unknown-host needs reset or misdirected, got ${longUnknownHost}`);
    process.exit(2);
  }
  const profileAtArg = takeValue(args, '--profile-at', 'page counts such as 10000,90000');
  const longProfileAt = profileAtArg === undefined ? [] : profileAtArg.split(',').map(Number);
  if (!longProfileAt.every((n) => Number.isInteger(n) && n >= 0)) {
    console.error(`--profile-at needs page counts such as 10000,90000, got ${profileAtArg}`);
    process.exit(2);
  }
  const heapAtArg = takeValue(args, '--heap-snapshot-at', 'page counts such as 30000,90000');
  const longHeapSnapshotAt = heapAtArg === undefined ? [] : heapAtArg.split(',').map(Number);
  if (!longHeapSnapshotAt.every((n) => Number.isInteger(n) && n >= 0)) {
    console.error(`--heap-snapshot-at needs page counts such as 30000,90000, got ${heapAtArg}`);
    process.exit(2);
  }
  const parts = args.filter((a) => !a.startsWith('--'));
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    console.error(`unknown benchmark part(s): ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
    process.exit(2);
  }
  const selected = parts.length > 0 ? parts : [...PARTS];
  const resultsDir = resolve(outArg ?? DEFAULT_OUT_DIR);
  for (const part of selected) {
    if (part === 'cluster') {
      // Prints its figures; writes cluster.json/.md only where --out says (no tracked file rewritten).
      await runClusterBench({
        outDir: outArg ?? false,
        pagesPerWorker: perWorker,
        ceilingPages,
        isBalanceOnly,
        ...(strategyList.length > 0 ? { strategies: strategyList } : {}),
        ...(workerCounts === undefined ? {} : { workerCounts }),
        ...(isQuick
          ? { workerCounts: [1, 2], pagesPerWorker: 40, ceilingPages: 300, webHosts: 2000, webPages: 20_000 }
          : {}),
      });
    }
    if (part === 'engine') {
      await runEngineBench({
        ...DEFAULT_ENGINE_BENCH_OPTIONS,
        rounds: engineRounds,
        ...(isQuick ? { webPages: 5_000, webHosts: 50, maxPages: 500 } : {}),
        // `--strategies a,b` runs only those tres rows, without Crawlee; `--out DIR` writes there.
        ...(strategyList.length > 0 ? { strategies: strategyList, shouldRunCrawlee: false } : {}),
        ...(askingList.length > 0 ? { askingStrategies: askingList } : {}),
        resultsDir: outArg ?? (isQuick ? join(resultsDir, 'quick') : resultsDir),
      });
    }
    if (part === 'memory') {
      await runMemoryBench({
        ...DEFAULT_MEMORY_BENCH_OPTIONS,
        strategies: strategyList,
        ...(isQuick ? { checkpoints: [2_000, 10_000], timeLimitSec: 60 } : {}),
        ...(timeLimitSec !== undefined ? { timeLimitSec } : {}),
        ...(linksPerPage !== undefined ? { linksPerPage } : {}),
        ...(maxFrontierUrls !== undefined ? { maxFrontierUrls } : {}),
        ...(memoryCheckpoints !== undefined ? { checkpoints: memoryCheckpoints } : {}),
        resultsDir: outArg ?? (isQuick ? join(resultsDir, 'quick') : resultsDir),
      });
    }
    if (part === 'decision') {
      await runDecisionBench({
        ...DEFAULT_DECISION_BENCH_OPTIONS,
        ...(isQuick ? { steps: 600, synchronousBudgetSec: 10, webPages: 50_000 } : {}),
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
      });
    }
    if (part === 'tree') {
      runTreeFrontierBench({
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
        ...(isQuick ? { steps: 2_000 } : {}),
      });
    }
    if (part === 'rl') runRlBench({ resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir });
    if (part === 'relevance') {
      await runRelevanceBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'relevance'),
        ...(docwebCacheDir ? { docwebCacheDir } : {}),
        ...(isQuick ? { relevantPages: 30, docwebRelevantPages: 30, folds: 2 } : {}),
      });
    }
    if (part === 'oracle') {
      // The DocWeb's reach: the oracle from every seed of every DocWeb topic.
      const outDir = join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'docweb2');
      const common = {
        maxPages: isQuick ? 300 : 3000,
        ...(docwebCacheDir ? { cacheDir: docwebCacheDir } : {}),
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      };
      // Without a limit the oracle spends the budget on the relevant pages it has; limit 10
      // makes it spread: the report's row "best" is what a crawl can reach from each seed.
      await runOracleReach({
        topicFiles: DOCWEB_TOPICS.map((t) => join('data', 'topics', `${t}.yaml`)),
        outDir,
        domainLimits: ['none', '10'],
        ...common,
      });
    }
    if (part === 'feedback') {
      await runFeedbackBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'ui'),
        ...(isQuick ? { labelAtStep: 300, maxPages: 500 } : {}),
        ...(docwebCacheDir ? { cacheDir: docwebCacheDir } : {}),
        ...(process.env.TRES_LABEL_WEIGHT ? { labelWeight: Number(process.env.TRES_LABEL_WEIGHT) } : {}),
        ...(process.env.TRES_FEEDBACK_MODEL === 'nb' || process.env.TRES_FEEDBACK_MODEL === 'svm'
          ? { keywordCrawlModel: process.env.TRES_FEEDBACK_MODEL }
          : {}),
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      });
    }
    if (part === 'ui') {
      await runUiCostBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'ui'),
        ...(isQuick ? { maxPages: 1000, repeats: 1 } : { repeats: 5 }),
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      });
    }
    if (part === 'pdf') {
      await runPdfBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'pdf'),
        docwebCacheDir: docwebCacheDir ?? defaultCacheDir(),
        ...(isQuick
          ? {
              madePdfs: 5,
              madePages: 4,
              maxRealPdfs: 3,
              hungryChars: 2_000_000,
              inflatedBytes: 32 * 2 ** 20,
              boundOptions: { maxHeapMb: 32, maxBufferMb: 4 },
            }
          : {}),
      });
    }
    if (part === 'render') {
      await runRenderBench({
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, 'render'),
        ...(isQuick ? { pages: 15 } : {}),
      });
    }
    if (part === 'fuzz') {
      await runFuzzBench({
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
        ...(isQuick ? { inputsPerTarget: 20_000 } : {}),
      });
    }
    if (part === 'long') {
      await runLongBench({
        ...DEFAULT_LONG_BENCH_OPTIONS,
        ...(isQuick ? { maxPages: 4000, webPages: 50_000, webHosts: 200, sampleEvery: 1000 } : {}),
        ...(strategyList.length > 0 ? { strategies: strategyList } : {}),
        ...(longMaxPages !== undefined ? { maxPages: longMaxPages } : {}),
        ...(longSampleEvery !== undefined ? { sampleEvery: longSampleEvery } : {}),
        ...(longWebPages !== undefined ? { webPages: longWebPages } : {}),
        ...(longWebHosts !== undefined ? { webHosts: longWebHosts } : {}),
        ...(longProfilePages !== undefined ? { profilePages: longProfilePages } : {}),
        ...(longResumePages !== undefined ? { resumePages: longResumePages } : {}),
        profileAt: longProfileAt,
        heapSnapshotAt: longHeapSnapshotAt,
        ...(longWorkDir !== undefined ? { workDir: longWorkDir } : {}),
        ...(longUnknownHost !== undefined ? { unknownHost: longUnknownHost } : {}),
        resultsDir: isQuick ? join(resultsDir, 'quick') : resultsDir,
      });
    }
    if (part === 'resume') {
      const topicFile = resumeTopic ?? join('data', 'bench', 'synthetic-hardware.yaml');
      const topicName = topicFile.replace(/^.*\//, '').replace(/\.ya?ml$/, '');
      const table = await runResumeBench({
        topicFile,
        ...(docwebCacheDir ? { cacheDir: docwebCacheDir } : {}),
        ...(resumeModel ? { modelDir: resumeModel } : {}),
        strategies: strategyList.length > 0 ? strategyList : ['tres'],
        runs: isQuick ? 1 : resumeRuns,
        ...(isQuick ? { maxPages: 300 } : {}),
        variants: resumeVariants,
        outDir: join(isQuick ? join(resultsDir, 'quick') : resultsDir, `resume-${topicName}`),
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      });
      console.log(table);
    }
    if (part === 'crawl') {
      const budget = isQuick ? { maxPages: 300, runs: 2 } : { maxPages: 3000, runs: 5 };
      const outRoot = isQuick ? join(resultsDir, 'quick') : resultsDir;
      const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`;
      // Every DocWeb topic with a trained reward (made once per topic, kept in --models DIR),
      // the oracle and every strategy at the paper's five domain limits.
      const cacheDir = docwebCacheDir ?? defaultCacheDir();
      const modelsDir = modelsArg ?? join(cacheDir, 'bench-models');
      for (const topic of DOCWEB_TOPICS) {
        const topicFile = join('data', 'topics', `${topic}.yaml`);
        const modelDir = await ensureTopicReward({ topicFile, cacheDir, modelsDir, log: console.log });
        await runCrawlBench({
          topicFile,
          modelDir,
          strategies: [ORACLE_STRATEGY, ...strategyNames().map((s) => s.name)],
          domainLimits: [...PAPER_DOMAIN_LIMITS],
          ...budget,
          outDir: join(outRoot, `crawl-docweb-${topic}`),
          cacheDir,
          command,
        });
      }
      // The generated topical web: every strategy plus TRES at lower discount factors.
      await runCrawlBench({
        topicFile: join('data', 'bench', 'synthetic-hardware.yaml'),
        strategies: [...strategyNames().map((s) => s.name), 'tres:gamma=0.5', 'tres:gamma=0.1'],
        domainLimits: ['none'],
        ...budget,
        outDir: join(outRoot, 'crawl-synthetic-hardware'),
        command,
      });
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
