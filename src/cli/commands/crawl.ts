/**
 * `tres crawl`: a focused crawl from seed URLs into an output folder, resumable.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/errors.js';
import { loadConfigFile, type OptionKind } from '../../config/index.js';
import type { CrawlerOptions } from '../../crawl/crawl-options.js';
import { Crawler } from '../../crawl/crawler.js';
import type { CrawlSummary } from '../../crawl/events.js';
import { strategyNames } from '../../strategies/registry.js';
import { formatProgress, ProgressLine } from '../progress-line.js';

/** Options of `tres crawl` as commander gives them (also the keys of a --config file). */
export interface CrawlCliOptions {
  seeds?: string;
  out?: string;
  resume?: string;
  config?: string;
  strategy?: string;
  maxPages?: number;
  domainLimit?: string;
  timeLimit?: number;
  concurrency?: number;
  keywords?: string[];
  keywordsFile?: string;
  keyphrases?: string[];
  model?: string;
  threshold?: number;
  seed?: string;
  siteMode?: string;
  minDelayMs?: number;
  userAgent?: string;
  resolve?: string[];
  httpsAsHttp?: boolean;
  allowLoopback?: boolean;
  robots?: boolean;
  warc?: boolean;
  quiet?: boolean;
}

const CONFIG_SCHEMA: Record<string, OptionKind> = {
  seeds: 'string',
  strategy: 'string',
  maxPages: 'number',
  domainLimit: 'string',
  timeLimit: 'number',
  concurrency: 'number',
  keywords: 'string[]',
  keywordsFile: 'string',
  keyphrases: 'string[]',
  model: 'string',
  threshold: 'number',
  seed: 'string',
  siteMode: 'string',
  minDelayMs: 'number',
  userAgent: 'string',
  resolve: 'string[]',
  httpsAsHttp: 'boolean',
  allowLoopback: 'boolean',
  robots: 'boolean',
  warc: 'boolean',
};

const SAVED_OPTIONS = 'tres-crawl.json';

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigError(`--${name} must be a whole number >= 0, got "${value}"`);
  return n;
};
const collect = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

export function registerCrawlCommand(program: Command): void {
  program
    .command('crawl')
    .description(
      'run a focused crawl from seed URLs; every page is stored in --out (SQLite, WARC, JSON lines)',
    )
    .option('--seeds <file>', 'text file with one seed URL per line (# starts a comment)')
    .option('--out <dir>', 'output folder for the crawl store; must not hold a crawl yet')
    .option('--resume <dir>', 'continue the crawl stored in this folder (after a crash or Ctrl-C)')
    .option('--config <file>', 'YAML or JSON file with any of these options in camelCase (flags win)')
    .option(
      '--strategy <spec>',
      `how to choose the next URL (RL ones take overrides, e.g. tres:gamma=0.5): ${strategyNames()
        .map((s) => s.name)
        .join(', ')}`,
    )
    .option('--max-pages <n>', 'page budget: fetch attempts to make (default 1000)', int('max-pages'))
    .option(
      '--domain-limit <b>',
      'pages per web site: none, a number, or START_FLOOR for halving at T/3 and 2T/3 (e.g. 5_2)',
    )
    .option('--time-limit <seconds>', 'stop after this many seconds', int('time-limit'))
    .option(
      '--concurrency <k>',
      'fetches in flight; 1 is the papers\u2019 sequential MDP (default 8)',
      int('concurrency'),
    )
    .option('--keywords <words>', 'topic keywords, comma separated (stand-in relevance judge)', collect)
    .option('--keywords-file <file>', 'topic keywords, one per line')
    .option('--keyphrases <phrases>', 'topic keyphrases, comma separated (never expanded)', collect)
    .option('--model <dir>', 'relevance model trained with `tres train` (default: a keyword judge)')
    .option('--threshold <p>', 'a page is relevant when P(relevant) >= p (default 0.5)', Number.parseFloat)
    .option('--seed <value>', 'run seed: the same seed repeats the same choices (default 1)')
    .addOption(new Option('--site-mode <mode>', 'what counts as one web site').choices(['domain', 'host']))
    .option(
      '--min-delay-ms <ms>',
      'minimum delay between two requests to one host (default 1000)',
      int('min-delay-ms'),
    )
    .option('--user-agent <ua>', 'User-Agent header; must include a contact URL')
    .option(
      '--resolve <rules>',
      'send HOST (or *) to ADDR:PORT, e.g. "*=127.0.0.1:8080" (repeatable)',
      collect,
    )
    .option('--https-as-http', 'fetch https:// URLs of resolved hosts over plain http (sandbox webs)')
    .option('--allow-loopback', 'allow fetching from 127.0.0.0/8 and ::1 (sandbox webs); refused by default')
    .option('--no-robots', 'ignore robots.txt (only for your own sites)')
    .option('--no-warc', 'do not write WARC records')
    .option('--quiet', 'no progress line (the summary is still printed)')
    .addHelpText(
      'after',
      `
Examples:
  tres crawl --seeds seeds.txt --out crawl1 --keywords cpu,motherboard,gpu --max-pages 5000
  tres crawl --resume crawl1                     # continue after Ctrl-C or a crash
  tres crawl --config crawl.yaml --out crawl2    # options from a file, flags override

Output folder: crawl.sqlite (every attempt, resumable), pages.warc.gz, pages.jsonl.
Ctrl-C stops gracefully (fetches in flight finish); a second Ctrl-C stops at once.`,
    )
    .action(async (flags: CrawlCliOptions, command: Command) => {
      const summary = await runCrawlCommand(flags, command);
      if (summary) printSummary(summary);
    });
}

/** Merges saved options (resume), the config file and flags; runs the crawl. */
export async function runCrawlCommand(
  flags: CrawlCliOptions,
  command?: Command,
): Promise<CrawlSummary | undefined> {
  const explicit = command ? explicitFlags(flags, command) : flags;
  let merged: CrawlCliOptions = {};
  if (flags.resume) {
    const saved = join(flags.resume, SAVED_OPTIONS);
    if (!existsSync(saved))
      throw new ConfigError(`--resume ${flags.resume}: no crawl found there (missing ${SAVED_OPTIONS})`);
    merged = JSON.parse(readFileSync(saved, 'utf8')) as CrawlCliOptions;
  }
  if (flags.config)
    merged = { ...merged, ...(loadConfigFile(flags.config, CONFIG_SCHEMA) as CrawlCliOptions) };
  merged = { ...merged, ...explicit };
  const outDir = flags.resume ?? merged.out;
  if (!outDir) throw new ConfigError('missing --out <dir> (where to store the crawl) or --resume <dir>');
  if (!flags.resume && !merged.seeds) throw new ConfigError('missing --seeds <file> (one seed URL per line)');
  const seeds = flags.resume ? [] : readSeeds(merged.seeds as string);
  const options = toCrawlerOptions(merged, outDir, Boolean(flags.resume));
  if (merged.model) {
    // Loaded on demand: the relevance room pulls in tfjs, which a keyword crawl does not need.
    const { loadModel } = await import('../../relevance/index.js');
    options.judge = await loadModel(merged.model);
  }
  const crawler = new Crawler(options);
  if (!flags.resume) saveOptions(outDir, { ...merged, out: outDir });
  const line = new ProgressLine();
  if (!merged.quiet) crawler.on('progress', (p) => line.update(formatProgress(p), p.elapsedMs));
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write('\nstopping: waiting for fetches in flight (Ctrl-C again to stop now)\n');
      crawler.stop('interrupted');
    } else crawler.abortNow();
  };
  process.on('SIGINT', onSigint);
  try {
    return await crawler.run(seeds);
  } finally {
    process.off('SIGINT', onSigint);
    line.done();
  }
}

function toCrawlerOptions(o: CrawlCliOptions, outDir: string, isResume: boolean): CrawlerOptions {
  const keywords = [
    ...(o.keywords ?? []),
    ...(o.keywordsFile ? readLines(o.keywordsFile, 'keywords file') : []),
  ];
  const resolve = o.resolve ?? [];
  return {
    outDir,
    isResume,
    strategy: o.strategy,
    maxPages: o.maxPages,
    maxPagesPerDomain: o.domainLimit,
    timeLimitMs: o.timeLimit === undefined ? undefined : o.timeLimit * 1000,
    maxConcurrency: o.concurrency,
    keywords,
    keyphrases: o.keyphrases ?? [],
    relevanceThreshold: o.threshold,
    seed: o.seed,
    siteMode: o.siteMode as 'domain' | 'host' | undefined,
    shouldWriteWarc: o.warc,
    net: {
      ...(o.minDelayMs === undefined ? {} : { minDelayMs: o.minDelayMs }),
      ...(o.userAgent === undefined ? {} : { userAgent: o.userAgent }),
      ...(o.robots === undefined ? {} : { respectRobotsTxt: o.robots }),
      resolveRules: resolve,
      isHttpsAsHttp: Boolean(o.httpsAsHttp),
      allowLoopback: Boolean(o.allowLoopback),
    },
  } as CrawlerOptions;
}

function readLines(path: string, what: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as Error).message}`, {
      context: { file: path },
    });
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

function readSeeds(path: string): string[] {
  const seeds = readLines(path, 'seeds file');
  if (seeds.length === 0)
    throw new ConfigError(`seeds file ${path} has no URLs (one per line)`, { context: { file: path } });
  return seeds;
}

function saveOptions(outDir: string, options: CrawlCliOptions): void {
  mkdirSync(outDir, { recursive: true });
  const { resume: _r, config: _c, quiet: _q, ...rest } = options;
  writeFileSync(join(outDir, SAVED_OPTIONS), `${JSON.stringify(rest, null, 2)}\n`);
}

/** Only the options the user actually typed (not commander's defaults). */
function explicitFlags(flags: CrawlCliOptions, command: Command): CrawlCliOptions {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flags)) {
    if (command.getOptionValueSource(key) === 'cli') out[key] = value;
  }
  return out as CrawlCliOptions;
}

function printSummary(s: CrawlSummary): void {
  const lines = [
    `crawl ${s.stopReason === 'interrupted' ? 'interrupted' : 'finished'} (${s.stopReason}) with strategy ${s.strategy}`,
    `  pages fetched   ${s.steps} (${s.failures} failed)`,
    `  relevant        ${s.relevant}  harvest rate ${(s.harvestRate * 100).toFixed(1)}%`,
    `  relevant sites  ${s.relevantDomains}`,
    `  frontier left   ${s.frontierSize}`,
    `  speed           ${s.pagesPerSec.toFixed(1)} pages/s over ${(s.elapsedMs / 1000).toFixed(1)} s`,
    `  stored in       ${s.outDir}${s.stopReason === 'interrupted' ? `  (continue with: tres crawl --resume ${s.outDir})` : ''}`,
  ];
  console.log(lines.join('\n'));
}
