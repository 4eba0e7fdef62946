/**
 * `tres demo`: the main job in one command. Starts an embedded sandbox web (a seeded synthetic
 * topical web on loopback), runs a focused crawl with each strategy, and prints harvest rate and
 * relevant sites, judged both by the web's ground truth and by the crawler's own judge. One fetch
 * at a time by default, so that the same --seed prints the same table: with several in flight the
 * order in which they finish (the machine's doing) changes what a strategy has seen when it
 * chooses, and the random and tree-random rows moved from run to run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../common/index.js';
import { Crawler } from '../../index.js';
import { keywordsOf, sandboxResolveRules, serveSandbox } from '../../sandbox/index.js';
import { splitStrategySpecs, strategyNames } from '../../strategies/index.js';
import { strategy as checkStrategy } from '../crawl-checks.js';
import { ProgressLine } from '../progress-line.js';

interface DemoFlags {
  pages: number;
  strategies: string;
  seed: string;
  concurrency: number;
  out?: string;
}

/** Fetches in flight by default: 1, the sequential crawl whose table repeats exactly. */
const DEMO_CONCURRENCY = 1;

/** The demo web: small enough to start at once, big enough that strategies differ. */
const DEMO_WEB = {
  seed: 'demo',
  hostCount: 300,
  pageCount: 60_000,
  topics: [
    'computer hardware',
    'cooking recipes',
    'football league',
    'gardening plants',
    'jazz music',
    'travel hotels',
    'stock markets',
    'astronomy telescopes',
  ],
  relevantTopic: 'computer hardware',
};

/** A flag's value as a whole number >= 1. @throws ConfigError naming the flag and the value. */
const wholeNumberAtLeast1 = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError(`${flag} must be a whole number >= 1, got "${value}"`, {
      context: { field: flag },
    });
  return n;
};

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('crawl an embedded sandbox web with several strategies and compare their harvest rates')
    .option('--pages <n>', 'pages per crawl', (v) => Number.parseInt(v, 10), 1000)
    .option(
      '--strategies <list>',
      `comma-separated, from: ${strategyNames()
        .map((s) => s.name)
        .join(', ')}`,
      'coverage,tres,best-first,random',
    )
    .option(
      '--seed <value>',
      'run seed of the random choices (tres\u2019s exploration, random; coverage and best-first make none)',
      '1',
    )
    .option(
      '--concurrency <k>',
      'fetches in flight; with more than 1 it is faster, but the table may change from run to run',
      wholeNumberAtLeast1('--concurrency'),
      DEMO_CONCURRENCY,
    )
    .option('--out <dir>', 'keep the crawl stores in this folder (default: a temporary folder, removed)')
    .addHelpText(
      'after',
      `
Examples:
  tres demo                                      # 1,000 pages with each of four strategies
  tres demo --pages 3000 --strategies tres,bfs   # a longer run, two strategies
  tres demo --seed 2 --out demo1                 # another run seed (tres and random move); keep the crawls in demo1/
The web: ${DEMO_WEB.pageCount.toLocaleString('en')} pages on ${DEMO_WEB.hostCount} sites on loopback, relevant topic "${DEMO_WEB.relevantTopic}"; one fetch at a time (the same --seed gives the same table), no delay.`,
    )
    .action(async (flags: DemoFlags) => runDemo(flags));
}

async function runDemo(flags: DemoFlags): Promise<void> {
  if (!Number.isInteger(flags.pages) || flags.pages < 1)
    throw new ConfigError('--pages must be a positive whole number');
  // A spec's own settings stay with it: coverage:newSiteValue=1,siteSaturation=off is one row.
  const strategies = splitStrategySpecs(flags.strategies);
  if (strategies.length === 0) throw new ConfigError('--strategies: give at least one strategy');
  // Every strategy is checked before the sandbox starts: a typo must not cost a crawl first.
  for (const spec of strategies) checkStrategy(spec, '--strategies');
  const sandbox = await serveSandbox({ web: DEMO_WEB });
  const web = sandbox.web!;
  const base = flags.out ?? mkdtempSync(join(tmpdir(), 'tres-demo-'));
  const seeds = web.seedUrls(5, { relevant: true });
  console.log(
    `sandbox web: ${web.pageCount} pages on ${web.hosts.length} hosts; relevant topic "${DEMO_WEB.relevantTopic}"`,
  );
  console.log(`seeds: ${seeds.join(' ')}\n`);
  const rows: string[][] = [];
  try {
    for (const strategy of strategies) {
      const crawler = new Crawler({
        outDir: join(base, strategy),
        strategy,
        seed: flags.seed,
        keywords: keywordsOf(DEMO_WEB.relevantTopic),
        maxPages: flags.pages,
        maxConcurrency: flags.concurrency,
        net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
      });
      let truthRelevant = 0;
      const truthDomains = new Set<string>();
      crawler.on('page', (p) => {
        if (p.isPage && web.labelOf(p.finalUrl) === true) {
          truthRelevant++;
          truthDomains.add(p.domain);
        }
      });
      const line = new ProgressLine(process.stderr, 5000);
      crawler.on('progress', (p) => line.show(p, { maxPages: crawler.options.maxPages }, `${strategy}: `));
      const s = await crawler.run(seeds);
      line.done();
      rows.push([
        strategy,
        String(s.steps),
        pct(truthRelevant / Math.max(1, s.steps)),
        String(truthDomains.size),
        pct(s.harvestRate),
        s.pagesPerSec.toFixed(0),
      ]);
    }
  } finally {
    await sandbox.close();
    if (!flags.out) rmSync(base, { recursive: true, force: true });
  }
  printTable(['strategy', 'pages', 'harvest (truth)', 'relevant sites', 'harvest (judge)', 'pages/s'], rows);
  console.log(
    '\nharvest (truth): share of fetched pages that are relevant by the web\u2019s ground-truth labels;',
  );
  console.log(
    'harvest (judge): the same judged by the crawler\u2019s own relevance judge (here: topic keywords).',
  );
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
