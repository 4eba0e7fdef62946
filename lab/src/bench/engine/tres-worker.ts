/**
 * Child process of the engine benchmark: tres crawling a sandbox web with a strategy (`bfs`,
 * `best-first`, `tres`, ...; default `bfs`), K fetches in flight and no politeness delay
 * (robots.txt still fetched and obeyed). The benchmark runs it under `node --cpu-prof` when
 * TRES_CPU_PROFILE_DIR is set.
 * Prints one JSON line: { pages, seconds, pagesPerSec, cpuSeconds, maxRssBytes, relevant, frontierSize }
 * (asking: also answers, the questions answered, and judgeVersion, the retrained judges swapped in)
 * (cpuSeconds: user + system time of the whole process, every thread: on a loaded machine the
 * CPU per page is the figure that compares strategies, pages/s depends on the load).
 */
import { Crawler, createSyntheticWeb } from 'tres-crawler';

interface WorkerArgs {
  resolveRules: string[];
  seeds: string[];
  maxPages: number;
  concurrency: number;
  outDir: string;
  shouldWriteWarc: boolean;
  keywords: string[];
  /** Strategy spec. @default 'bfs' */
  strategy?: string;
  /** Ask questions, answered from the labels of this generated web (made again here). */
  askWeb?: { seed: string; pageCount: number; hostCount: number };
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
  const web = args.askWeb ? createSyntheticWeb(args.askWeb) : undefined;
  let answers = 0;
  const crawler = new Crawler({
    outDir: args.outDir,
    strategy: args.strategy ?? 'bfs',
    keywords: args.keywords,
    maxPages: args.maxPages,
    maxConcurrency: args.concurrency,
    shouldWriteWarc: args.shouldWriteWarc,
    net: { minDelayMs: 0, resolveRules: args.resolveRules, allowLoopback: true },
    ...(web
      ? {
          ask: (q) => {
            answers++;
            return Promise.resolve(web.labelOf(q.url) === true);
          },
        }
      : {}),
  });

  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const summary = await crawler.run(args.seeds);
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const pages = summary.steps;
  const line = {
    pages,
    seconds,
    pagesPerSec: pages / seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssBytes,
    relevant: summary.relevant,
    frontierSize: summary.frontierSize,
    ...(web ? { answers, judgeVersion: crawler.judgeVersion } : {}),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
