/**
 * Memory benchmark: bytes per frontier URL of every strategy, at 100k, 500k and 1M
 * frontier samples. Each strategy runs in its own child process (`memory-worker`, with
 * `--expose-gc`), driven through the Strategy interface by a generated link stream (no HTTP, no
 * store), so the growth is the strategy's own: its frontier, its per-URL indexes and whatever
 * else it keeps per link or per step. Figures: (heap used + external + the frontier's growable
 * columns, which V8 counts in neither, after two GCs - the same before seeding) / frontier
 * samples, and the same for RSS (which keeps the heap's high-water mark, garbage included).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strategyNames } from 'tres-crawler';
import { benchEnv, writeResults } from '../bench-env.js';

export interface MemoryBenchOptions {
  /** Strategy specs to measure. @default every registered strategy */
  strategies: string[];
  /** Frontier sizes (samples) at which to measure. @default [100_000, 500_000, 1_000_000] */
  checkpoints: number[];
  /** Outlinks per fetched page. @default 50 */
  linksPerPage: number;
  /** Hosts of the generated link stream. @default 2000 */
  hostCount: number;
  /** Wall-time limit of one strategy's run in seconds; checkpoints not reached are reported missing. @default 180 */
  timeLimitSec: number;
  /** Folder for results. */
  resultsDir: string;
  /** Run seed. @default '1' */
  seed: string;
  /**
   * The crawl loop's bound on the frontier in memory: pages are recorded in a crawl store and the
   * links past the bound wait there (the frontier counts them). `false`: the strategy alone, no
   * store. @default false
   */
  maxFrontierUrls: number | false;
}

export const DEFAULT_MEMORY_BENCH_OPTIONS: Omit<MemoryBenchOptions, 'resultsDir' | 'strategies'> = {
  checkpoints: [100_000, 500_000, 1_000_000],
  linksPerPage: 50,
  hostCount: 2000,
  timeLimitSec: 180,
  seed: '1',
  maxFrontierUrls: false,
};

/** One checkpoint of one strategy, as the worker prints it. */
export interface MemoryPoint {
  strategy: string;
  frontierSize: number;
  steps: number;
  seconds: number;
  heapBytes: number;
  rssBytes: number;
  baseHeapBytes: number;
  baseRssBytes: number;
  /** With a bound: URLs in the strategy's frontier (the rest wait in the store). */
  inMemory?: number;
  /** With a bound: bytes of the crawl database (crawl.sqlite and its WAL). */
  diskBytes?: number;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Runs one strategy's worker; resolves with the checkpoints it reached. */
function runWorker(args: Record<string, unknown>): Promise<MemoryPoint[]> {
  const compiled = join(here, 'memory-worker.js');
  // From dist: node runs the compiled worker; from the sources: vite-node, in the same process.
  const argv = existsSync(compiled)
    ? ['--expose-gc', compiled, JSON.stringify(args)]
    : [
        '--expose-gc',
        join(here, '..', '..', '..', '..', 'node_modules', 'vite-node', 'vite-node.mjs'),
        join(here, 'memory-worker.ts'),
        '--',
        JSON.stringify(args),
      ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const points = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as MemoryPoint);
      if (code !== 0) reject(new Error(`memory worker for ${String(args.strategy)} exited with ${code}`));
      else resolve(points);
    });
  });
}

const perUrl = (bytes: number, base: number, size: number) => (bytes - base) / size;

/** The Markdown table: one row per strategy, heap and RSS bytes per URL at each checkpoint. */
export function memoryTable(points: MemoryPoint[], strategies: string[], checkpoints: number[]): string {
  const head = checkpoints.map((c) => `${c / 1000}k heap / RSS`).join(' | ');
  const lines = [
    `| strategy | ${head} | seconds to last |`,
    `|---|${checkpoints.map(() => '---:').join('|')}|---:|`,
  ];
  for (const s of strategies) {
    const mine = points.filter((p) => p.strategy === s);
    const cells = checkpoints.map((c, i) => {
      const p = mine[i];
      if (!p || p.frontierSize < c) return 'not reached';
      const heap = perUrl(p.heapBytes, p.baseHeapBytes, p.frontierSize);
      const rss = perUrl(p.rssBytes, p.baseRssBytes, p.frontierSize);
      return `${heap.toFixed(0)} / ${rss.toFixed(0)}`;
    });
    const last = mine[mine.length - 1];
    lines.push(`| ${s} | ${cells.join(' | ')} | ${last ? last.seconds.toFixed(0) : '-'} |`);
  }
  return lines.join('\n');
}

/**
 * With a bound on the frontier in memory: per strategy and checkpoint, the URLs in memory and the
 * crawl database's bytes per frontier URL (it holds the pages' rows, their outlinks among them).
 */
export function spillTable(points: MemoryPoint[], strategies: string[], checkpoints: number[]): string {
  const head = checkpoints.map((c) => `${c / 1000}k: in memory / disk B per URL`).join(' | ');
  const lines = [`| strategy | ${head} |`, `|---|${checkpoints.map(() => '---:').join('|')}|`];
  for (const s of strategies) {
    const mine = points.filter((p) => p.strategy === s);
    const cells = checkpoints.map((c, i) => {
      const p = mine[i];
      if (!p || p.frontierSize < c || p.diskBytes === undefined) return 'not reached';
      return `${p.inMemory} / ${(p.diskBytes / p.frontierSize).toFixed(0)}`;
    });
    lines.push(`| ${s} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Runs the memory benchmark, prints the table, writes results/memory.{json,md}. */
export async function runMemoryBench(o: MemoryBenchOptions): Promise<void> {
  const env = benchEnv();
  const strategies = o.strategies.length > 0 ? o.strategies : strategyNames().map((s) => s.name);
  const points: MemoryPoint[] = [];
  for (const strategy of strategies) {
    console.log(`memory bench: ${strategy} ...`);
    const storeDir = o.maxFrontierUrls === false ? undefined : mkdtempSync(join(tmpdir(), 'tres-memory-'));
    const mine = await runWorker({
      strategy,
      maxFrontierUrls: o.maxFrontierUrls,
      ...(storeDir ? { storeDir } : {}),
      checkpoints: o.checkpoints,
      linksPerPage: o.linksPerPage,
      hostCount: o.hostCount,
      timeLimitSec: o.timeLimitSec,
      seed: o.seed,
    });
    if (storeDir) rmSync(storeDir, { recursive: true, force: true });
    for (const p of mine)
      console.log(
        `  ${p.frontierSize} samples after ${p.steps} steps (${p.seconds.toFixed(0)} s): ${perUrl(p.heapBytes, p.baseHeapBytes, p.frontierSize).toFixed(0)} B/URL heap, ${perUrl(p.rssBytes, p.baseRssBytes, p.frontierSize).toFixed(0)} B/URL RSS${p.diskBytes === undefined ? '' : `, ${p.inMemory} in memory, ${(p.diskBytes / p.frontierSize).toFixed(0)} B/URL on disk`}`,
      );
    points.push(...mine);
  }
  const table =
    memoryTable(points, strategies, o.checkpoints) +
    (o.maxFrontierUrls === false ? '' : `\n\n${spillTable(points, strategies, o.checkpoints)}`);
  console.log(`\n${table}\n`);
  const md = `# Memory benchmark: bytes per frontier URL

Each strategy in its own child process (\`node --expose-gc\`), driven through the Strategy interface by a generated link stream without HTTP or store: ${o.linksPerPage} outlinks per fetched page, 80% on the page's host, ${o.hostCount} hosts, URLs made by \`normalizeUrl\` as the crawl loop makes them (a fresh string per link), anchor scores and link context when the strategy asks for them; seed ${o.seed}. At each frontier size (the strategy's \`frontier/size\`: samples, stale ones included where a frontier drops them lazily) two GCs, then bytes per URL = (heap used + external + the frontier's growable columns, which V8 counts in neither - the same before seeding) / frontier size, and the same for RSS (which keeps the heap's high-water mark). Each run stops after ${o.timeLimitSec} s.${o.maxFrontierUrls === false ? '' : ` With a bound of ${o.maxFrontierUrls} URLs on the frontier in memory (the crawl loop's FrontierSpill): every page is recorded in a crawl store (no WARC), the links past the bound wait there, and the frontier size is the strategy's URLs plus those links; the second table gives the URLs in memory and the crawl database's bytes per frontier URL.`}

${table}

Command: \`${env.command}\` at commit ${env.commit}, ${env.node}, ${env.cores} x ${env.cpu}, ${env.date}.
`;
  const paths = writeResults(o.resultsDir, 'memory', { env, options: { ...o, strategies }, points }, md);
  console.log(`results: ${paths.json}, ${paths.md}`);
}
