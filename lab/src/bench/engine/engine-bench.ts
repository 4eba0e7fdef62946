/**
 * Engine benchmark: pages per second and peak memory of tres crawling a generated web of at
 * least 100k pages on loopback with K = 16, against Crawlee's CheerioCrawler on the same web in
 * the same run. Each crawler runs in its own child process (so its peak RSS is its own) while
 * this process serves the web, with no politeness delay. tres runs breadth-first (the engine
 * alone, WARC on and off), then best-first and TRES (WARC off): what choosing and learning cost
 * on the same engine, web and K. Crawlee runs breadth-first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyntheticWeb, sandboxResolveRules, startReplayServer } from 'tres-crawler';
import { keywordsOf } from 'tres-crawler/internals';
import { benchEnv, writeResults } from '../bench-env.js';

export interface EngineBenchOptions {
  /** Pages in the generated web. @default 100_000 */
  webPages: number;
  /** Hosts in the generated web. @default 500 */
  webHosts: number;
  /** Page budget of each crawl. @default 20_000 */
  maxPages: number;
  /** Fetches in flight. @default 16 */
  concurrency: number;
  /** Folder for results. */
  resultsDir: string;
  /**
   * Only the tres rows of these strategies (and Crawlee unless `shouldRunCrawlee` is false);
   * empty or absent: every row. @default every row
   */
  strategies?: readonly string[];
  /** Run Crawlee's row (the speed-vs-Crawlee column needs it). @default true */
  shouldRunCrawlee?: boolean;
  /**
   * Runs of every row, the rows in turn (round 1 of every row, then round 2, ...): on a shared
   * machine one run of the same build varies by up to 1.7x, and a ratio of two rows is steadier
   * taken within a round. Each round starts one row further on (round 2 runs the rows from the
   * second, the first last): whichever row ran last in a round was 4-6% slower, every round
   * (results/coverage-strategy/hub-front.md). Above 1 the report adds each row's
   * medians and the median of its per-round speed against best-first. @default 1
   */
  rounds?: number;
  /**
   * Strategies that also get a row asking questions (`ask`: the library's defaults, 50
   * questions at most, answered at once from the generated web's labels; answers retrain the
   * judge in a worker thread, the library Crawler's default). @default none
   */
  askingStrategies?: readonly string[];
}

export const DEFAULT_ENGINE_BENCH_OPTIONS: Omit<EngineBenchOptions, 'resultsDir'> = {
  webPages: 100_000,
  webHosts: 500,
  maxPages: 20_000,
  concurrency: 16,
};

interface WorkerResult {
  pages: number;
  seconds: number;
  pagesPerSec: number;
  maxRssBytes: number;
  /** User + system CPU time of the crawler's process (tres only: on a loaded machine, CPU per page compares strategies). */
  cpuSeconds?: number;
  /** Relevant pages (keyword judge) and the frontier at the end; tres only. */
  relevant?: number;
  frontierSize?: number;
}

/** The tres rows: strategy and WARC. */
interface TresRow {
  name: string;
  strategy: string;
  shouldWriteWarc: boolean;
  /** The crawl asks questions (see `askingStrategies`). */
  isAsking?: boolean;
}

const TRES_ROWS: readonly TresRow[] = [
  { name: 'tres engine, bfs (WARC on)', strategy: 'bfs', shouldWriteWarc: true },
  { name: 'tres engine, bfs (WARC off)', strategy: 'bfs', shouldWriteWarc: false },
  { name: 'tres engine, best-first (WARC off)', strategy: 'best-first', shouldWriteWarc: false },
  { name: 'tres engine, tres (WARC off)', strategy: 'tres', shouldWriteWarc: false },
  { name: 'tres engine, coverage (WARC off)', strategy: 'coverage', shouldWriteWarc: false },
];

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Runs a crawler child process; with TRES_CPU_PROFILE_DIR set, under `node --cpu-prof` writing
 * its profile there (Node refuses --cpu-prof in NODE_OPTIONS).
 */
function runWorker(script: string, args: unknown): Promise<WorkerResult> {
  const profileDir = process.env.TRES_CPU_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...profile, join(here, script), JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{'))
        reject(new Error(`${script} exited with ${code}: ${out.slice(-500)}`));
      else resolve(JSON.parse(line) as WorkerResult);
    });
  });
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** Median, min and max of `xs` as "m (a-b)" with `digits` decimals. */
function spread(xs: readonly number[], digits: number): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(digits);
  return `${f(median)} (${f(sorted[0])}-${f(sorted[sorted.length - 1])})`;
}

/**
 * Each row's pages/s and CPU ms a page over the rounds, and its speed against best-first taken
 * round by round (both ran minutes apart, under the same load), as median (min-max).
 */
function roundsTableOf(runs: Record<string, WorkerResult[]>, rounds: number): string {
  const bestFirst = runs['tres engine, best-first (WARC off)'];
  const lines = Object.entries(runs).map(([name, list]) => {
    const cpu = list
      .filter((r) => r.cpuSeconds !== undefined)
      .map((r) => (1000 * (r.cpuSeconds as number)) / r.pages);
    const ratios = bestFirst
      ? list.map((r, i) => r.pagesPerSec / (bestFirst[i] as WorkerResult).pagesPerSec)
      : [];
    return `| ${name} | ${spread(
      list.map((r) => r.pagesPerSec),
      0,
    )} | ${cpu.length > 0 ? spread(cpu, 2) : '-'} | ${ratios.length > 0 ? `${spread(ratios, 2)}` : '-'} |`;
  });
  return [
    `| crawler (${rounds} rounds) | pages/s, median (min-max) | CPU ms/page | speed vs best-first, per round |`,
    '|---|---:|---:|---:|',
    ...lines,
    '',
  ].join('\n');
}

/** Runs the engine benchmark, prints a table, writes JSON and Markdown. */
export async function runEngineBench(options: EngineBenchOptions): Promise<void> {
  const o = options;
  // The asking rows' children make this web again from the same options.
  const web = createSyntheticWeb({ seed: 'engine-bench', pageCount: o.webPages, hostCount: o.webHosts });
  const server = await startReplayServer({ sites: web.sites(), unknownHost: 'misdirected' });
  const seeds = web.seedUrls(10);
  const work = mkdtempSync(join(tmpdir(), 'tres-engine-bench-'));
  const env = benchEnv();
  console.log(
    `engine bench: web of ${web.pageCount} pages on ${web.hosts.length} hosts, ${o.maxPages} pages per crawl, K = ${o.concurrency}`,
  );
  const rounds = o.rounds ?? 1;
  /** Every run of each row, by round. */
  const runs: Record<string, WorkerResult[]> = {};
  const results: Record<string, WorkerResult> = {};
  try {
    const common = {
      seeds,
      maxPages: o.maxPages,
      concurrency: o.concurrency,
      keywords: keywordsOf(web.options.relevantTopic),
    };
    const only = o.strategies ?? [];
    // A spec with settings (`coverage:context=0`) that is no row's gets a row of its own.
    const extra = only
      .filter((spec) => !TRES_ROWS.some((r) => r.strategy === spec))
      .map((spec) => ({ name: `tres engine, ${spec} (WARC off)`, strategy: spec, shouldWriteWarc: false }));
    const asking = (o.askingStrategies ?? []).map((spec) => ({
      name: `tres engine, ${spec} asking (WARC off)`,
      strategy: spec,
      shouldWriteWarc: false,
      isAsking: true,
    }));
    const rows: TresRow[] = [
      ...TRES_ROWS.filter((r) => only.length === 0 || only.includes(r.strategy)),
      ...extra,
      ...asking,
    ];
    for (let round = 1; round <= rounds; round++) {
      const rotated = rows.map((_, i) => rows[(i + round - 1) % rows.length] as (typeof rows)[number]);
      for (const row of rotated) {
        console.log(`running ${row.name}${rounds > 1 ? `, round ${round} of ${rounds}` : ''} ...`);
        const outDir = join(work, `${row.name.replace(/\W+/g, '-')}-${round}`);
        const result = await runWorker('tres-worker.js', {
          ...common,
          resolveRules: sandboxResolveRules(server),
          outDir,
          shouldWriteWarc: row.shouldWriteWarc,
          strategy: row.strategy,
          // The child makes the same web again (seeded) for its labels: the user who answers.
          ...(row.isAsking
            ? { askWeb: { seed: 'engine-bench', pageCount: o.webPages, hostCount: o.webHosts } }
            : {}),
        });
        rmSync(outDir, { recursive: true, force: true });
        runs[row.name] = [...(runs[row.name] ?? []), result];
        console.log(`  ${JSON.stringify(result)}`);
      }
      if (o.shouldRunCrawlee !== false) {
        console.log(`running crawlee CheerioCrawler${rounds > 1 ? `, round ${round} of ${rounds}` : ''} ...`);
        const crawlee = await runWorker('crawlee-worker.js', { ...common, proxyUrl: server.url });
        runs.crawlee = [...(runs.crawlee ?? []), crawlee];
      }
    }
    // The run of median pages/s stands for its row in the main table.
    for (const [name, list] of Object.entries(runs))
      results[name] = [...list].sort((a, b) => a.pagesPerSec - b.pagesPerSec)[
        (list.length - 1) >> 1
      ] as WorkerResult;
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const crawlee = results.crawlee;
  // A row the run has no Crawlee or best-first row to compare with shows '-', not 'NaNx'.
  const ratio = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(2)}x`);
  const bestFirst = results['tres engine, best-first (WARC off)'];
  const rows = Object.entries(results).map(([name, r]) => ({
    name,
    ...r,
    speedVsCrawlee: crawlee ? r.pagesPerSec / crawlee.pagesPerSec : Number.NaN,
    speedVsBestFirst: bestFirst ? r.pagesPerSec / bestFirst.pagesPerSec : Number.NaN,
  }));
  const table = [
    '| crawler | pages | relevant | frontier at end | seconds | pages/s | CPU ms/page | peak RSS (MiB) | speed vs Crawlee | speed vs best-first |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.pages} | ${r.relevant ?? '-'} | ${r.frontierSize ?? '-'} | ${r.seconds.toFixed(1)} | ${r.pagesPerSec.toFixed(0)} | ${r.cpuSeconds === undefined ? '-' : ((1000 * r.cpuSeconds) / r.pages).toFixed(1)} | ${mib(r.maxRssBytes)} | ${ratio(r.speedVsCrawlee)} | ${ratio(r.speedVsBestFirst)} |`,
    ),
  ].join('\n');
  const roundsTable = rounds > 1 ? roundsTableOf(runs, rounds) : '';
  console.log(`\n${table}\n${roundsTable === '' ? '' : `\n${roundsTable}`}`);
  const md = `# Engine benchmark\n\nGenerated web: ${web.pageCount} pages on ${web.hosts.length} hosts (seed engine-bench), served on loopback by the replay server in the parent process. Each crawler in its own child process, K = ${o.concurrency}, no politeness delay, ${o.maxPages} pages per crawl. tres fetches and obeys robots.txt, parses every page, judges it (keyword judge) and records it in SQLite (+ WARC when on), with the strategy named in the row (bfs: the engine alone; best-first: ordered by the parent page's relevance; tres: Tree-Frontier + Double DQN, anchor scores, training; "asking": the crawl asks up to 50 questions, answered at once from the web's labels, and retrains its judge on them in a worker thread; its child builds the web's labels before its clock starts, which adds to its peak RSS); Crawlee (CheerioCrawler, in-memory storage, breadth-first) parses with cheerio and enqueues every link.\n\n${table}\n${roundsTable === '' ? '' : `\nEvery row ran ${rounds} times, in turn, each round starting one row further on; the table above shows each row's run of median pages/s.\n\n${roundsTable}`}\nCommand: \`${env.command}\` at commit ${env.commit}, ${env.node}, ${env.cores} x ${env.cpu}, ${env.date}.\n`;
  const paths = writeResults(o.resultsDir, 'engine', { env, options: o, results: rows, runs }, md);
  console.log(`results: ${paths.json}, ${paths.md}`);
}
