/**
 * What the DocWeb lets a crawler reach: for each topic, from each seed, the oracle (best-first on
 * the ground truth) within T pages, no domain limit, closed world. The DocWeb's goal: at least
 * 10 relevant domains from every seed, a median of at least 20, and no run dry before T. Writes
 * `OUT/oracle-reach.json` and `OUT/oracle-reach.md`, and keeps each topic's benchmark folder
 * (`OUT/oracle-<topic>/`, resumable).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { hostSite } from 'tres-crawler/internals';
import { parse as parseYaml } from 'yaml';
import { DocwebDb, defaultCacheDir, loadTopic, readHubIndex } from '../../docweb/index.js';
import { runCrawlBench } from './crawl-bench.js';
import type { RunResult } from './crawl-bench-run.js';
import { ORACLE_STRATEGY } from './oracle-strategy.js';

/** Options of {@link runOracleReach}. */
export interface OracleReachOptions {
  /** Topic files (DocWeb topics). */
  topicFiles: string[];
  /** Output folder. */
  outDir: string;
  /** Page budget T per run. @default 3000 */
  maxPages?: number;
  /**
   * Domain limits to run the oracle at (`none`, `100`, ...). With more than one, a row `best`
   * takes for each seed the run with the most relevant domains: the relevant domains a crawl can
   * reach from that seed within the budget when it spreads out (the oracle ranks pages, not
   * sites: without a limit it spends the budget on the relevant pages it has). The goal judges
   * domains on that row and running dry at `none`. @default ['none']
   */
  domainLimits?: string[];
  /** DocWeb cache. @default the DocWeb default */
  cacheDir?: string;
  /** The command line, for the report. @default process argv */
  command?: string;
  /** Progress lines. @default console.log */
  log?: (line: string) => void;
}

/** One topic's oracle runs, one per seed. */
export interface TopicReach {
  topic: string;
  /** Domain limit of these runs (`none`, `100`, ...). */
  domainLimit: string;
  seeds: number;
  runs: Pick<
    RunResult,
    | 'seedUrl'
    | 'steps'
    | 'relevant'
    | 'harvestRate'
    | 'relevantDomains'
    | 'stopReason'
    | 'failures'
    | 'linksDiscovered'
    | 'linksOutOfWeb'
  >[];
  /** Relevant pages and their sites (hosts without www.) in the whole web: the ceiling of any crawl. */
  webRelevantPages: number;
  webRelevantDomains: number;
  minDomains: number;
  medianDomains: number;
  dryRuns: number;
  /**
   * The DocWeb's goal met: >= 10 domains from every seed, median >= 20, no run dry at no limit.
   * Judged on the `best` row when there is one, else on `none`.
   */
  isGoalMet: boolean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0
    ? Number.NaN
    : n % 2
      ? (s[(n - 1) / 2] as number)
      : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};

/**
 * Per seed (the i-th run of each list), the run with the most relevant domains; the first list's
 * run on ties.
 */
export function bestRunPerSeed<R extends { relevantDomains: number }>(lists: readonly (readonly R[])[]): R[] {
  return (lists[0] ?? []).map((first, i) =>
    lists.reduce<R>((a, runs) => {
      const b = runs[i];
      return b !== undefined && b.relevantDomains > a.relevantDomains ? b : a;
    }, first),
  );
}

/** Runs the oracle from every seed of every topic and writes the report. */
export async function runOracleReach(options: OracleReachOptions): Promise<TopicReach[]> {
  const maxPages = options.maxPages ?? 3000;
  const log = options.log ?? ((line: string) => console.log(line));
  mkdirSync(options.outDir, { recursive: true });
  const out: TopicReach[] = [];
  for (const file of options.topicFiles) {
    const name = basename(file, extname(file));
    // One run per seed: run i starts from seed i.
    const seedCount = (parseYaml(readFileSync(file, 'utf8')) as { seeds: string[] }).seeds.length;
    const domainLimits = options.domainLimits ?? ['none'];
    const bench = await runCrawlBench({
      topicFile: file,
      strategies: [ORACLE_STRATEGY],
      domainLimits,
      runs: seedCount,
      maxPages,
      outDir: join(options.outDir, `oracle-${name}`),
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      command: options.command ?? process.argv.join(' '),
      log,
    });
    const web = relevantInWeb(file, options.cacheDir ?? defaultCacheDir());
    const byLimit = new Map<string, TopicReach['runs']>();
    for (const domainLimit of domainLimits) {
      byLimit.set(
        domainLimit,
        bench.runs
          .filter((r) => r.domainLimit === domainLimit)
          .map((r) => ({
            seedUrl: r.seedUrl,
            steps: r.steps,
            relevant: r.relevant,
            harvestRate: r.harvestRate,
            relevantDomains: r.relevantDomains,
            stopReason: r.stopReason,
            failures: r.failures,
            linksDiscovered: r.linksDiscovered,
            linksOutOfWeb: r.linksOutOfWeb,
          })),
      );
    }
    const noLimitRuns = byLimit.get('none') ?? [];
    const dryAtNoLimit = noLimitRuns.filter((r) => r.steps < maxPages).length;
    const rows: [string, TopicReach['runs']][] = [...byLimit];
    if (domainLimits.length > 1) {
      rows.push(['best', bestRunPerSeed([...byLimit.values()])]);
    }
    const judged = domainLimits.length > 1 ? 'best' : 'none';
    for (const [domainLimit, runs] of rows) {
      const domains = runs.map((r) => r.relevantDomains);
      const dryRuns = runs.filter((r) => r.steps < maxPages).length;
      out.push({
        topic: bench.runs[0]?.topic ?? name,
        domainLimit,
        seeds: seedCount,
        runs,
        webRelevantPages: web.pages,
        webRelevantDomains: web.domains,
        minDomains: Math.min(...domains),
        medianDomains: median(domains),
        dryRuns,
        isGoalMet:
          domainLimit === judged && Math.min(...domains) >= 10 && median(domains) >= 20 && dryAtNoLimit === 0,
      });
    }
    writeFileSync(
      join(options.outDir, 'oracle-reach.json'),
      `${JSON.stringify({ maxPages, topics: out }, null, 1)}\n`,
    );
    writeFileSync(join(options.outDir, 'oracle-reach.md'), oracleReachMarkdown(out, maxPages));
  }
  return out;
}

/** Relevant pages of a topic in the built web, and their sites (hosts without www.). */
function relevantInWeb(file: string, cacheDir: string): { pages: number; domains: number } {
  const topic = loadTopic(file, readHubIndex(cacheDir));
  const db = new DocwebDb(cacheDir);
  try {
    const domains = new Set<string>();
    let pages = 0;
    for (const page of db.pages()) {
      if (!topic.labelOf(page.url)) continue;
      pages++;
      domains.add(hostSite(new URL(page.url).hostname));
    }
    return { pages, domains: domains.size };
  } finally {
    db.close();
  }
}

/** The per-topic, per-seed table. */
export function oracleReachMarkdown(topics: readonly TopicReach[], maxPages: number): string {
  const lines = [
    `# Oracle reach on the DocWeb (${maxPages.toLocaleString('en-US')} pages a run, closed world)`,
    '',
    'The oracle fetches pages the topic labels relevant first (best-first on the ground truth; among relevant links, those of the site it has fetched fewest pages from; BFS among ties), from one seed per run. Goal: >= 10 relevant domains from every seed, median >= 20 (judged on the row "best": per seed, the oracle run with the most relevant domains over the domain limits run, since the oracle ranks pages, not sites), no run dry at domain limit none. Relevant domains are sites: hosts without `www.`, as the TRES authors\u2019 code counts domains (packages.debian.org and www.debian.org are two). "in the web": relevant pages and domains of the whole built web, the ceiling of any crawl.',
    '',
    '| topic | domain limit | relevant pages in the web | relevant domains in the web | seeds | min domains | median domains | ran dry | goal met |',
    '|---|---|---:|---:|---:|---:|---:|---:|:-:|',
    ...topics.map(
      (t) =>
        `| ${t.topic} | ${t.domainLimit} | ${t.webRelevantPages} | ${t.webRelevantDomains} | ${t.seeds} | ${t.minDomains} | ${t.medianDomains} | ${t.dryRuns} | ${t.domainLimit === 'best' || (t.domainLimit === 'none' && !topics.some((o) => o.topic === t.topic && o.domainLimit === 'best')) ? (t.isGoalMet ? 'yes' : 'no') : ''} |`,
    ),
    '',
  ];
  for (const t of topics) {
    lines.push(
      `## ${t.topic}, domain limit ${t.domainLimit}`,
      '',
      '| seed | attempts | relevant pages | HR % | relevant domains | failed | stop |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const r of t.runs)
      lines.push(
        `| ${r.seedUrl} | ${r.steps} | ${r.relevant} | ${(100 * r.harvestRate).toFixed(1)} | ${r.relevantDomains} | ${r.failures} | ${r.stopReason} |`,
      );
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
