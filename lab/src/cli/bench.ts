/**
 * `npm run lab -- bench crawl`: the crawl benchmark of the TRES papers on a topic's web (DocWeb or a
 * synthetic web): every strategy x domain limit x single-seed run, reported in the Table 3 layout
 * with plots. Finished runs are kept in the out folder; running the command again resumes.
 * `npm run lab -- bench summary`: one report over several topics' results (does tres earn the claim).
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, strategyNames } from 'tres-crawler';
import { splitStrategySpecs } from 'tres-crawler/internals';
import {
  DEFAULT_CRAWL_BENCH_OPTIONS,
  PAPER_DOMAIN_LIMITS,
  readTopicResults,
  runCrawlBench,
  summaryReport,
} from '../bench/index.js';

/** Flags of `npm run lab -- bench crawl` as commander gives them. */
export interface BenchCrawlFlags {
  topic: string;
  strategies?: string[];
  pages?: number;
  runs?: number;
  domainLimit?: string[];
  concurrency?: number;
  model?: string;
  judge?: string;
  out?: string;
  cache?: string;
  threshold?: number;
  fresh?: boolean;
  openWorld?: boolean;
  truthReward?: boolean;
  keepStores?: string;
  quiet?: boolean;
}

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`--${name} must be a whole number >= 1, got "${value}"`);
  return n;
};

const list = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** Quotes a word for a POSIX shell when it needs it (the report records a command to paste). */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Adds `tres bench` and its `crawl` sub-command to the program. */
export function registerBenchCommand(program: Command): void {
  const bench = program.command('bench').description('benchmarks that compare crawl strategies');
  const d = DEFAULT_CRAWL_BENCH_OPTIONS;
  bench
    .command('crawl')
    .description(
      'crawl a topic\u2019s web with every strategy x domain limit x single-seed run; write JSON, CSV, SVG plots and a Markdown report (Table 3 layout)',
    )
    .requiredOption('--topic <file>', 'topic YAML file (DocWeb topic, or one with web: {synthetic: ...})')
    .option(
      '--strategies <list>',
      `comma-separated strategies or specs such as tres:gamma=0.5 (default: all registered: ${strategyNames()
        .map((s) => s.name)
        .join(', ')})`,
      (value: string, previous: string[] | undefined) => [...(previous ?? []), ...splitStrategySpecs(value)],
    )
    .option('--pages <n>', `page budget T of each run (default ${d.maxPages})`, positive('pages'))
    .option('--runs <r>', `single-seed runs per strategy and limit (default ${d.runs})`, positive('runs'))
    .option(
      '--domain-limit <list>',
      `comma-separated domain limits: none, a number, START_FLOOR (default none; the paper: ${PAPER_DOMAIN_LIMITS.join(',')})`,
      list,
    )
    .option(
      '--concurrency <k>',
      'fetches in flight; 1 is the sequential MDP (default 1)',
      positive('concurrency'),
    )
    .option(
      '--model <dir>',
      'trained relevance model as the crawler\u2019s judge (default: the topic keywords)',
    )
    .option(
      '--judge <spec>',
      'the judge a user has, instead of --model: keywords (the default without --model), or user:examples=N,answers=M (the cold-start judge from the topic\u2019s keywords and N example pages drawn with the run\u2019s seed from the web\u2019s relevant pages; M answers from the ground truth at most)',
    )
    .option('--out <dir>', 'results folder (default bench-out/crawl-<topic file name>, not tracked by git)')
    .option('--cache <dir>', 'DocWeb cache folder (default $TRES_CACHE_DIR/docweb or ~/.cache/tres/docweb)')
    .option(
      '--threshold <p>',
      'the crawler judges a page relevant when P >= p (default 0.5)',
      Number.parseFloat,
    )
    .option('--fresh', 'discard the runs stored in the results folder instead of resuming')
    .option(
      '--open-world',
      'attempt links that leave the web (hosts it does not serve; on DocWeb also pages the mirror lacks): they fail, as dead links; default: closed world, such links dropped',
    )
    .option(
      '--truth-reward',
      'upper-bound experiment: the crawler\u2019s page reward is the ground truth, links still scored by --model (is the agent or the reward the limit?)',
    )
    .option(
      '--keep-stores <dir>',
      'keep each new run\u2019s crawl store (crawl.sqlite) in DIR/<row>__run<i> to inspect it',
    )
    .option('--quiet', 'no line per finished run')
    .addHelpText(
      'after',
      `
Examples:
  npm run lab -- bench crawl --topic data/topics/hardware.yaml --cache ~/.cache/tres/docweb \\
      --strategies bfs,random,best-first --pages 3000 --runs 5 --domain-limit none,100,10,5,5_2
  npm run lab -- bench crawl --topic my-synthetic-topic.yaml --pages 500 --runs 3

Run i starts from the topic's seed i mod (number of seeds) and uses i as its random seed.
Harvest rate is judged by the topic's ground-truth labels, and again by the crawler's classifier.
Output: report.md (+ *.svg), results.json, runs.csv, curves.csv, table.csv, runs/ (one file per
finished run: a killed benchmark keeps them, and the same command resumes).`,
    )
    .action(async (flags: BenchCrawlFlags) => {
      const result = await runCrawlBench({
        topicFile: flags.topic,
        ...(flags.strategies ? { strategies: flags.strategies } : {}),
        ...(flags.pages ? { maxPages: flags.pages } : {}),
        ...(flags.runs ? { runs: flags.runs } : {}),
        ...(flags.domainLimit ? { domainLimits: flags.domainLimit } : {}),
        ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
        ...(flags.model ? { modelDir: flags.model } : {}),
        ...(flags.judge ? { judge: flags.judge } : {}),
        ...(flags.out ? { outDir: flags.out } : {}),
        ...(flags.cache ? { cacheDir: flags.cache } : {}),
        ...(flags.threshold === undefined ? {} : { relevanceThreshold: flags.threshold }),
        isFresh: Boolean(flags.fresh),
        isOpenWorld: Boolean(flags.openWorld),
        isTruthReward: Boolean(flags.truthReward),
        ...(flags.keepStores ? { keepStoresDir: flags.keepStores } : {}),
        command: `npm run lab -- ${process.argv.slice(2).map(shellQuote).join(' ')}`,
        log: flags.quiet ? false : (line) => console.log(line),
      });
      console.log(`${result.runs.length} runs (${result.newRuns} new); report: ${result.outDir}/report.md`);
    });

  bench
    .command('summary')
    .description(
      'one report over several topics’ crawl benchmarks: does a strategy earn the paper’s claim on each (Pareto front, dominates every other strategy, harvest rate >= 85% of the oracle’s), and every strategy side by side per domain limit',
    )
    .argument('<dirs...>', 'results folders written by npm run lab -- bench crawl --out')
    .option('--strategy <name>', 'the strategy whose claim is checked (default tres)', 'tres')
    .option('--out <file>', 'write the Markdown there instead of printing it')
    .addHelpText(
      'after',
      '\nExample:\n  npm run lab -- bench summary bench-out/crawl-docweb-* --out bench-out/crawl-docweb-summary.md',
    )
    .action((dirs: string[], flags: { strategy: string; out?: string }) => {
      const command = [
        'npm run lab -- bench summary',
        ...dirs,
        ...(flags.strategy === 'tres' ? [] : ['--strategy', flags.strategy]),
        ...(flags.out ? ['--out', flags.out] : []),
      ].join(' ');
      const text = summaryReport(dirs.map(readTopicResults), flags.strategy, command);
      if (flags.out) {
        writeFileSync(flags.out, text);
        console.log(`summary of ${dirs.length} topics: ${flags.out}`);
      } else process.stdout.write(text);
    });
}
